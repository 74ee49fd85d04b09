/**
 * Request validation and refusals of the HTTP routes.
 *
 * Each route's `params`, `querystring`, `body` and `headers` schemas (openapi.ts builds them) are
 * validated by Fastify before the handler runs. A schema names the refusal of its own failure with
 * an `x-error` annotation ({code, message}, also shown in the OpenAPI document), so a bad `limit`
 * is still BAD_LIMIT and a bad room id BAD_ROOM_ID, as the handlers answered before the schemas
 * were live; a failure without one is BAD_REQUEST.
 *
 * Two Ajv instances: path and query values arrive as text, so they are coerced ("20" is the
 * integer 20); a JSON body and headers are taken as sent (a number is not a name, `null` is not a
 * password), which Fastify's one default instance (coerceTypes: "array" everywhere) cannot do.
 */
import { Ajv, type ErrorObject, type Options } from "ajv";
import type { FastifyInstance, FastifyRequest, FastifySchemaCompiler } from "fastify";
import { AppError, err, toErrorReply } from "../platform/errors.js";
import { RateLimitedError } from "../platform/rate-limit.js";

type Json = Record<string, unknown>;

/** The annotation naming a schema's refusal. */
export const REFUSAL = "x-error";

export interface Refusal {
  code: string;
  message: string;
}

/** `schema`, refused with `code` and `message` when a value fails it. */
export function refusing(schema: Json, code: string, message: string): Json {
  return { ...schema, [REFUSAL]: { code, message } satisfies Refusal };
}

/** HTTP status of each refusal that is not a plain bad request (400). */
const STATUS: Record<string, number> = {
  BAD_TOKEN: 401,
  BAD_LOGIN: 401,
  BAD_RECOVERY: 401,
  ACCOUNT_REQUIRED: 403,
  ACCOUNT_CLOSED: 403,
  ADMIN_REQUIRED: 401,
  NO_SUCH_ACCOUNT: 404,
  BLOCKED: 403,
  NO_SUCH_PLAYER: 404,
  NO_SUCH_REPORT: 404,
  NO_SUCH_MESSAGE: 404,
  NO_SUCH_SESSION: 404,
  TOTP_REQUIRED: 401,
  BAD_TOTP: 401,
  TWO_FACTOR_ON: 409,
  TWO_FACTOR_OFF: 409,
  NO_TWO_FACTOR_SETUP: 409,
  DAILY_SPOILER: 403,
  DAILY_REPLAY_LATER: 403,
  NOT_FOUND: 404,
  NO_SUCH_ROOM: 404,
  NAME_TAKEN: 409,
  GUEST_NAME_TAKEN: 409,
  NAME_IN_ROOM: 409,
  RENAME_TOO_SOON: 409,
  ALREADY_REGISTERED: 409,
  NOT_A_GUEST: 409,
  ALREADY_REPORTED: 409,
  ALREADY_RESOLVED: 409,
  NOT_CLOSED_BY_OPERATORS: 409,
  ON_VACATION: 409,
  NOT_ON_VACATION: 409,
  NO_VACATION_DAYS: 409,
  VACATIONS_UNAVAILABLE: 503,
  RATE_LIMITED: 429,
  PUSH_OFF: 503,
  // A record or room of a game's newer rules met by an older node during a deploy: another node (or a retry after it) serves it.
  RULES_TOO_NEW: 503,
};

export const statusOf = (code: string): number => STATUS[code] ?? 400;

const common: Options = {
  useDefaults: true,
  // Unknown properties are dropped, not refused (as the handlers ignored them).
  removeAdditional: true,
  // One error is enough to refuse; all of them costs time an attacker chooses (Fastify's advice).
  allErrors: false,
  // Errors carry the schema that failed (parentSchema), which holds the refusal.
  verbose: true,
  allowUnionTypes: true,
};

function newAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({ ...common, coerceTypes });
  ajv.addKeyword({ keyword: REFUSAL, schemaType: "object" });
  return ajv;
}

/** Fastify's validator compiler for the routes: coercing for the path and query, exact for body and headers. */
export function validatorCompiler(): FastifySchemaCompiler<Json> {
  const text = newAjv(true);
  const exact = newAjv(false);
  return ({ schema, httpPart }) => (httpPart === "body" || httpPart === "headers" ? exact : text).compile(schema);
}

const PART: Record<string, string> = { body: "The request body", querystring: "The query", params: "The path", headers: "The headers" };

/** The refusal of a failed validation: the failing schema's own, else BAD_REQUEST. */
export function refusalOf(errors: ErrorObject[], part: string): AppError {
  const e = errors[0];
  if (e) {
    const parent = e.parentSchema as Json | undefined;
    // A missing property is refused as the property would be; anything else by the schema that failed.
    const failed =
      e.keyword === "required" ? ((parent?.properties as Record<string, Json> | undefined)?.[(e.params as { missingProperty: string }).missingProperty] ?? parent) : parent;
    const r = failed?.[REFUSAL] as Refusal | undefined;
    if (r) return err(r.code, r.message);
  }
  const where = e?.instancePath ? ` (${e.instancePath.slice(1).replace(/\//g, ".")})` : "";
  return err("BAD_REQUEST", `${PART[part] ?? "The request"} is not as documented${where}: see GET /api/openapi.json.`);
}

/**
 * Installs the validation and the error replies: every refusal is {ok: false, error: {code, message}}
 * with its status (Retry-After on RATE_LIMITED). Call before the routes are added.
 */
export function installValidation(app: FastifyInstance): void {
  app.setValidatorCompiler(validatorCompiler());
  app.setSchemaErrorFormatter((errors, part) => refusalOf(errors as ErrorObject[], part));
  app.setErrorHandler((e, _req, reply) => {
    if (e instanceof AppError) {
      if (e instanceof RateLimitedError) void reply.header("retry-after", String(e.retryAfterSeconds));
      return reply.status(statusOf(e.code)).send(toErrorReply(e));
    }
    const status = (e as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) app.log.error({ err: e }, "request failed");
    return reply.status(status).send({
      ok: false,
      error: {
        code: status === 413 ? "PAYLOAD_TOO_LARGE" : status < 500 ? "BAD_REQUEST" : "INTERNAL",
        message: status < 500 ? "That request could not be understood." : "Something went wrong on the server.",
      },
    });
  });
}

/**
 * The `headers` schema of a route that reads `Authorization: Bearer <token>`: the header is
 * optional (each route says what it does without one) but, when sent, must be of that form.
 */
const BEARER = /^Bearer (\S+)$/;
const BAD_BEARER = 'The Authorization header must be "Bearer <token>".';
export const bearerHeaders: Json = {
  type: "object",
  properties: {
    authorization: refusing({ type: "string", pattern: `^(${BEARER.source.slice(1, -1)})?$` }, "BAD_TOKEN", BAD_BEARER),
  },
  // The request's other headers are kept (removeAdditional would drop them otherwise).
  additionalProperties: true,
};

/**
 * The token of an `Authorization: Bearer <token>` header; undefined without one. It checks the
 * form itself because a route that needs an account asks before validation (preValidation: who
 * may not use the route learns nothing of what its body should be).
 */
export function bearerToken(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const m = BEARER.exec(header);
  if (!m) throw err("BAD_TOKEN", BAD_BEARER);
  return m[1];
}
