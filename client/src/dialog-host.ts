/**
 * Where a modal dialog of the page is drawn: one container at the end of <body> per kind of
 * dialog (the rules, a report, a recovery code), made when first needed and again if the page
 * lost it. The dialogs are lit-html templates rendered into it.
 */
export function dialogHost(className: string): () => HTMLElement {
  let host: HTMLElement | null = null;
  return () => {
    if (host?.isConnected) return host;
    host = document.createElement("div");
    host.className = className;
    document.body.append(host);
    return host;
  };
}
