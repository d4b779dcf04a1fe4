// The diagnostic code of the validate_json tool (docs/diagnostics.md renders it under its own heading).
import { type CodeGroup, e } from "../../shared/codes.js";

export const VALIDATE_JSON_CODES: CodeGroup = {
  range: "KV431",
  title: "validate_json",
  codes: [
    e("KV431", "validate_json is given an input or output schema (its own are fixed)"),
  ],
};
