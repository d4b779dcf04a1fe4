// Requests this server sends to its client (2025-11-25 elicitation/create, sampling/createMessage and
// roots/list, over stdio and Streamable HTTP, for questions): ids of our own, answers matched back by id
// (and, over HTTP, by the principal that was asked), abandoned when the call is aborted.
import { isObject, type RequestId } from "./jsonrpc.js";

export interface ClientAnswer {
  result?: unknown;
  error?: unknown;
}

export class ClientRequests {
  private next = 1;
  private readonly waiting = new Map<string, { owner: string | undefined; take: (answer: ClientAnswer) => void }>();

  /** Sends one request through `send` and resolves with the client's result; rejects on its error or on abort. */
  ask(send: (message: Record<string, unknown>) => void, method: string, params: Record<string, unknown>, signal: AbortSignal, owner?: string): Promise<unknown> {
    const id = `kervan-${this.next++}`;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.waiting.delete(id);
        reject(new Error(`${method} abandoned: the call was cancelled`));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiting.set(id, { owner, take: (answer) => {
        signal.removeEventListener("abort", onAbort);
        if (answer.error !== undefined) {
          const message = isObject(answer.error) && typeof answer.error.message === "string" ? answer.error.message : "error";
          reject(new Error(`the client answered ${method} with an error: ${message}`));
        } else resolve(answer.result);
      } });
      send({ jsonrpc: "2.0", id, method, params });
    });
  }

  /** Hands a client's response to the request waiting for it; false when none is (or another principal was asked). */
  deliver(id: RequestId, answer: ClientAnswer, owner?: string): boolean {
    const waiter = this.waiting.get(String(id));
    if (!waiter || waiter.owner !== owner) return false;
    this.waiting.delete(String(id));
    waiter.take(answer);
    return true;
  }
}

/** True when client capabilities allow form elicitation (an empty object means form). */
export function canElicit(capabilities: unknown): boolean {
  if (!isObject(capabilities) || !isObject(capabilities.elicitation)) return false;
  const e = capabilities.elicitation;
  return Object.keys(e).length === 0 || isObject(e.form) || !("url" in e);
}
