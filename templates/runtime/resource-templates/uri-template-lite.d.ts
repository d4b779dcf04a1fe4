// Types of uri-template-lite (it ships none): the parts the matcher uses.
declare module "uri-template-lite" {
  export default class UriTemplate {
    constructor(template: string);
    expand(data: Record<string, unknown>): string;
    match(uri: string): Record<string, unknown> | null;
  }
}
