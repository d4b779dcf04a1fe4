// The http tool kind's runtime, as the generated server imports it.
export type {
  ArrayStyle,
  BodySpec,
  FieldSpec,
  HeaderSpec,
  HttpDeps,
  HttpMethod,
  HttpToolConfig,
  JsonTemplate,
  Part,
  SecretSpec,
  SelectFn,
} from "./config.js";
export { createHttpHandler } from "./handler.js";
export { checkHttpStartup, resolveHttpEnv } from "./startup.js";
export { compileSelect } from "./select.js";
export type { NullPlan } from "./nulls.js";
export { REDACTED } from "./redact.js";
