// 2025-11-25 questions (elicitation, sampling, roots) over Streamable HTTP. This server keeps no session, so what a 2025 client
// declared at initialize is remembered for its principal (the token's subject, else the client
// address; the latest initialize wins, a bounded number of principals). A tools/call from a principal
// that initialized, on a POST that accepts an event stream, sends the requests its client declared it
// can answer on that call's own SSE stream; the client answers with a POST of the JSON-RPC response,
// which is taken only from the same principal. With several replicas the answer must reach the
// replica that asked (a principal routed to one replica); elsewhere it is accepted and dropped, and
// the question waits until the client closes the call's stream.
import { ClientRequests, type ClientAnswer } from "./client-requests.js";
import { isObject, type RequestId } from "./jsonrpc.js";
import type { ClientAsker, SignalSource } from "./types.js";

const MAX_PRINCIPALS = 4096;

export class HttpAsks {
  private readonly declared = new Map<string, unknown>();
  private readonly requests = new ClientRequests();

  /** A 2025-11-25 initialize: remember what this principal declared. */
  remember(principal: string, params: Record<string, unknown> | undefined): void {
    this.declared.delete(principal);
    if (this.declared.size >= MAX_PRINCIPALS) this.declared.delete(this.declared.keys().next().value as string);
    this.declared.set(principal, isObject(params) ? params.capabilities : undefined);
  }

  /** How a call may ask this principal's client (what it declared, and its call's stream), or undefined when it cannot. */
  askerFor(principal: string, notify: ((message: Record<string, unknown>) => void) | undefined, call: SignalSource): ClientAsker | undefined {
    if (!notify || !this.declared.has(principal)) return undefined;
    return { capabilities: this.declared.get(principal), request: (method, params) => this.requests.ask(notify, method, params, call.signal, principal) };
  }

  deliver(principal: string, id: RequestId, answer: ClientAnswer): boolean {
    return this.requests.deliver(id, answer, principal);
  }
}
