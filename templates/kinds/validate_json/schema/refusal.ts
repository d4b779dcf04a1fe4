// Schemas the tool will not interpret are refused with one sentence each, never partly validated.
import { clipText } from "../../../runtime/clip.js";

export class SchemaRefusal extends Error {
  constructor(readonly sentence: string) {
    super(sentence);
    this.name = "SchemaRefusal";
  }
}

const q = (s: string) => JSON.stringify(clipText(s, 200));

export const refusals = {
  remoteRef: (ref: string, at: string) =>
    `Refused: the schema's $ref ${q(ref)} at ${at} points outside the given schema; $ref may only point inside it (#, #/... or #name), and nothing is ever fetched.`,
  embeddedId: (id: string, at: string) =>
    `Refused: the schema sets an embedded $id ${q(id)} at ${at}; embedded schema resources are not supported, so remove the $id and refer to that part with #/... instead.`,
  unresolvedRef: (ref: string, at: string) =>
    `Refused: the schema's $ref ${q(ref)} at ${at} does not lead to a schema inside the given schema.`,
  unknownDraft: (uri: string) =>
    `Refused: $schema ${q(uri)} is not one of draft-04, draft-06, draft-07, 2019-09 or 2020-12 (leave it out for 2020-12).`,
  notASchema: (at: string, why: string) => `Refused: the schema is malformed at ${at}: ${why}.`,
  refLoop: (at: string) =>
    `Refused: the schema's $ref at ${at} leads back to itself without moving into the document, so validation would never end.`,
  tooDeep: () => "Refused: the document or schema nests too deeply to validate.",
};
