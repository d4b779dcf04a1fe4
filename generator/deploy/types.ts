// What `kervan deploy` knows about one generated server, read from its manifest, plus deploy options.
export interface DeployInput {
  server: string;
  version: string;
  /** Environment variables the tools read that are secrets (Kubernetes Secret references). */
  secrets: string[];
  /** Other environment variables the tools read (left for the operator to set). */
  env: string[];
  /** Bearer token variables the spec's auth names (secrets too). */
  authSecrets: string[];
  replicas: number;
  port: number;
  drainMs: number;
  /** Time the listener stays open after SIGTERM so endpoints see /readyz 503 first. */
  drainGraceMs: number;
  image: string;
  /** nginx: host:port of each replica. */
  upstreams: string[];
}
