// A spec refused after the check stage, for a reason the check could not see (a schema the type
// compiler cannot read): thrown by an emitter, turned by the pipeline into a diagnostic at the pointer.
export class SpecRefused extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly file: string,
    readonly pointer: string,
  ) {
    super(message);
  }
}
