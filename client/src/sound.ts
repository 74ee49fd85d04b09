/**
 * The page's sounds: a short chime when it becomes your turn in a room you sit in (store.ts
 * decides when), and the low-time beeps at 10 s and 5 s on your own clock (clock.ts). One
 * remembered mute covers both (the "Sounds on/off" switch at the table and in Your games).
 *
 * Every sound asked for is logged in `window.goblinBazaarBeeps` (tests read it, since a headless
 * browser plays nothing): a low-time beep as `${roomId}:${deadline}:${threshold}`, a turn chime as
 * `turn:${roomId}:${version}`, each followed by ":muted" when the sounds were off.
 */
import type { Store } from "./store.js";

/** "1" while the sounds are off. */
const MUTE_KEY = "goblin-bazaar.sounds-muted";
/** The same choice as saved before the turn chime existed (it muted the low-time beeps only): still honoured. */
const OLD_MUTE_KEY = "goblin-bazaar.clock-muted";

let muted = (() => {
  try {
    return localStorage.getItem(MUTE_KEY) === "1" || localStorage.getItem(OLD_MUTE_KEY) === "1";
  } catch {
    return false;
  }
})();
let audio: AudioContext | null = null;

export function isMuted(): boolean {
  return muted;
}

export function setMuted(s: Store, value: boolean): void {
  muted = value;
  try {
    if (value) localStorage.setItem(MUTE_KEY, "1");
    else localStorage.removeItem(MUTE_KEY);
    localStorage.removeItem(OLD_MUTE_KEY); // the new key holds the choice from now on
  } catch {
    /* private mode: the choice lasts this page only */
  }
  if (!value) unlockAudio();
  s.changed();
}

/** Browsers start audio only after a gesture: make (or resume) the context on one. */
function unlockAudio(): void {
  const Ctx = (window as unknown as { AudioContext?: typeof AudioContext; webkitAudioContext?: typeof AudioContext }).AudioContext ??
    (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctx) return;
  try {
    audio ??= new Ctx();
    if (audio.state === "suspended") void audio.resume().catch(() => {});
  } catch {
    audio = null;
  }
}

let unlocking = false;
/** Unlock the audio on the page's first gestures (once installed; called by the clock ticker and the store). */
export function installAudioUnlock(): void {
  if (unlocking) return;
  unlocking = true;
  for (const ev of ["pointerdown", "keydown"]) document.addEventListener(ev, () => !muted && unlockAudio(), { capture: true, passive: true });
}

/** Sounds asked for so far, for tests (see the file comment). */
export const beeps: string[] = [];
(window as unknown as { goblinBazaarBeeps: string[] }).goblinBazaarBeeps = beeps;

/** One short sine tone at `freq` Hz starting `at` seconds from now. */
function tone(freq: number, at: number, length: number): void {
  if (!audio) return;
  const t = audio.currentTime + at;
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.type = "sine";
  osc.frequency.value = freq;
  gain.gain.setValueAtTime(0.0001, t);
  gain.gain.exponentialRampToValueAtTime(0.12, t + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, t + length);
  osc.connect(gain).connect(audio.destination);
  osc.start(t);
  osc.stop(t + length + 0.02);
}

function playable(): boolean {
  return !muted && !!audio && audio.state === "running";
}

/** The low-time warning on your clock: one beep, higher at 5 s. `key` is its log entry. */
export function lowTimeBeep(key: string, high: boolean): void {
  beeps.push(muted ? `${key}:muted` : key);
  if (playable()) tone(high ? 1046 : 784, 0, 0.16);
}

/** Two rising notes, unlike the single low-time beep; `key` is its log entry. */
function risingNotes(key: string): void {
  beeps.push(muted ? `${key}:muted` : key);
  if (!playable()) return;
  tone(660, 0, 0.12);
  tone(880, 0.13, 0.18);
}

/** It became your turn in `roomId` at `version`. */
export function turnChime(roomId: string, version: number): void {
  risingNotes(`turn:${roomId}:${version}`);
}

/** An invitation to `roomId` arrived (invitations.ts), sent at `at`. */
export function invitationChime(roomId: string, at: number): void {
  risingNotes(`invite:${roomId}:${at}`);
}
