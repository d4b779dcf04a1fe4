// The single-use record of sealed requestStates kept in this process: each state carries a random
// nonce, and a retry is served only when its nonce is recorded here for the first time. Entries are
// kept until the state would have expired anyway (after that the seal itself refuses it).

/** A nonce minted by sealState: 16 random bytes, base64url. Anything else is never recorded. */
export const NONCE = /^[A-Za-z0-9_-]{22}$/;

export class UsedStates {
  private readonly used = new Map<string, number>();

  /** true the first time a nonce is seen (the state may be served), false for a replay. */
  consume(nonce: string, expiresAt: number, now = Date.now()): boolean {
    if (!NONCE.test(nonce)) return false;
    const seen = this.used.get(nonce);
    if (seen !== undefined && seen > now) return false;
    this.used.set(nonce, expiresAt);
    return true;
  }

  sweep(now = Date.now()): void {
    for (const [nonce, exp] of this.used) if (exp <= now) this.used.delete(nonce);
  }
}
