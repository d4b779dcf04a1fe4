// `kervan deploy`: the Kubernetes manifests validate against the Kubernetes API schemas of the
// kubernetes-models package, and say what the issue asks of them; the Dockerfile and nginx config too.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import { Deployment } from "kubernetes-models/apps/v1/Deployment";
import { Service } from "kubernetes-models/v1/Service";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1/PodDisruptionBudget";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler";

function deploy(server: string, target: string, ...args: string[]): string {
  const dest = mkdtempSync(join(tmpdir(), "kervan-deploy-"));
  const run = spawnSync(process.execPath, ["bin/kervan.mjs", "deploy", server, "--target", target, "--dest", dest, ...args], { encoding: "utf8" });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  const file = target === "docker" ? "Dockerfile" : target === "kubernetes" ? "kubernetes.yaml" : target === "compose" ? "compose.yaml" : "nginx.conf";
  expect(run.stdout).toContain(`kervan: wrote ${join(dest, file)}`);
  return readFileSync(join(dest, file), "utf8");
}

function refused(server: string, target: string, ...args: string[]): string {
  const run = spawnSync(process.execPath, ["bin/kervan.mjs", "deploy", server, "--target", target, "--dest", mkdtempSync(join(tmpdir(), "kervan-deploy-")), ...args], { encoding: "utf8" });
  expect(run.status).toBe(2);
  return run.stderr;
}

const MODELS: Record<string, new (data: any) => { validate(): void }> = { Deployment, Service, PodDisruptionBudget, HorizontalPodAutoscaler };

describe("kervan deploy --target kubernetes", () => {
  const docs = parseAllDocuments(deploy("github-issues", "kubernetes", "--auth", "bearer", "--drain-ms", "20000", "--replicas", "2")).map((d) => d.toJS());
  const byKind = Object.fromEntries(docs.map((d) => [d.kind, d]));

  it("writes a Deployment, Service, PodDisruptionBudget and HorizontalPodAutoscaler valid against the Kubernetes API schemas", () => {
    expect(docs.map((d) => d.kind)).toEqual(["Deployment", "Service", "PodDisruptionBudget", "HorizontalPodAutoscaler"]);
    for (const doc of docs) expect(() => new MODELS[doc.kind](doc).validate(), doc.kind).not.toThrow();
  });

  it("a broken manifest does not validate (the check can fail)", () => {
    const broken = structuredClone(byKind.Deployment);
    broken.spec.template.spec.containers[0].readinessProbe.httpGet.port = { not: "a port" };
    expect(() => new Deployment(broken).validate()).toThrow();
  });

  it("probes /healthz and /readyz, drains within a termination grace above --drain-ms, runs locked down", () => {
    const pod = byKind.Deployment.spec.template.spec;
    const c = pod.containers[0];
    expect(c.livenessProbe.httpGet.path).toBe("/healthz");
    expect(c.readinessProbe.httpGet.path).toBe("/readyz");
    expect(c.args).toEqual(expect.arrayContaining(["--drain-ms", "20000", "--host", "0.0.0.0"]));
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(20000 + 5000);
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(c.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } });
    expect(byKind.Deployment.spec.replicas).toBe(2);
  });

  it("references the spec's secrets and the bearer token from a Secret, never with values", () => {
    const env = byKind.Deployment.spec.template.spec.containers[0].env;
    const ref = (key: string) => ({ name: key, valueFrom: { secretKeyRef: { name: "github-issues-secrets", key } } });
    expect(env).toEqual([ref("GITHUB_ISSUES_TOKEN"), ref("GITHUB_TOKEN")]);
  });
});

describe("kervan deploy --target docker and nginx", () => {
  it("the Dockerfile runs the one bundle as a non-root user, with plain (non-BuildKit) instructions", () => {
    const text = deploy("validator", "docker", "--auth", "none-behind-proxy");
    expect(text).toMatch(/^COPY server\.mjs \/app\/server\.mjs$/m);
    expect(text).not.toMatch(/--chmod|--mount|<<|# syntax=/);
    expect(text).toMatch(/^USER 1000:1000$/m);
    expect(text).toContain("--read-only");
    expect(text).not.toMatch(/npm (install|ci)/);
  });

  it("a catalog's Dockerfile copies the chunk files its bundle loads on first use; a flat server's has none", () => {
    expect(deploy("github-catalog", "docker", "--auth", "none-behind-proxy")).toMatch(/^COPY server\.mjs \/app\/server\.mjs\nCOPY chunks \/app\/chunks$/m);
    expect(deploy("validator", "docker", "--auth", "none-behind-proxy")).not.toContain("chunks");
  });

  it("the nginx upstream has every replica, SSE unbuffered, and never retries non-idempotent requests", () => {
    const text = deploy("validator", "nginx", "--auth", "none-behind-proxy", "--upstreams", "10.0.0.1:8080,10.0.0.2:8080,10.0.0.3:8080");
    expect(text.match(/^\s+server 10\.0\.0\.\d:8080 /gm)).toHaveLength(3);
    expect(text).toContain("proxy_buffering off;");
    expect(text).toMatch(/proxy_next_upstream error timeout;/);
    expect(text).not.toContain("non_idempotent;");
  });

  it("a server with sandboxed exec tools installs bubblewrap and names the privileges it needs", () => {
    const text = deploy("repo-explorer", "docker", "--auth", "bearer");
    expect(text).toMatch(/^RUN apt-get update && .*apt-get install -y --no-install-recommends bubblewrap /m);
    expect(text).toContain("unmask=/proc/*");
    expect(text).toContain("systempaths=unconfined");
    const entry = JSON.parse(text.match(/^ENTRYPOINT (.*)$/m)![1]);
    expect(entry).toEqual(expect.arrayContaining(["--auth", "bearer", "--bearer-env", "REPO_EXPLORER_TOKEN", "--allowed-hosts", "repo-explorer"]));
    const pod = parseAllDocuments(deploy("repo-explorer", "kubernetes", "--auth", "bearer")).map((d) => d.toJS())[0].spec.template.spec;
    expect(pod.hostUsers).toBe(false);
    expect(pod.containers[0].securityContext).toMatchObject({ procMount: "Unmasked", seccompProfile: { type: "Unconfined" } });
    expect(() => new Deployment(parseAllDocuments(deploy("repo-explorer", "kubernetes", "--auth", "bearer"))[0].toJS()).validate()).not.toThrow();
  });

  it("a server without auth in its spec needs --auth; none-behind-proxy is said out loud", () => {
    expect(refused("validator", "docker")).toContain("choose with --auth bearer, --auth oauth or --auth none-behind-proxy");
    const entry = JSON.parse(deploy("validator", "docker", "--auth", "none-behind-proxy").match(/^ENTRYPOINT (.*)$/m)![1]);
    expect(entry).toEqual(expect.arrayContaining(["--auth", "none", "--insecure-no-auth"]));
  });

  it("nginx's read timeout is the longest tool timeout plus the drain", () => {
    // project-checks' run_tests may take 900 s; its tasks live in memory, so one replica only.
    const text = deploy("project-checks", "nginx", "--auth", "bearer", "--replicas", "1", "--drain-ms", "10000");
    expect(text).toMatch(/proxy_read_timeout 915s;/);
    expect(text).toMatch(/server project-checks:8080 /);
  });

  it("refuses several replicas of a server whose tasks live in process memory, naming the fix", () => {
    for (const target of ["kubernetes", "compose"]) {
      expect(refused("project-checks", target, "--auth", "bearer", "--replicas", "3")).toContain("Set server.tasks.store: redis in the spec");
    }
  });

  it("the compose file, the Kubernetes Service and nginx's upstream use one name", () => {
    const compose = parseAllDocuments(deploy("validator", "compose", "--auth", "none-behind-proxy", "--replicas", "3"))[0].toJS();
    expect(Object.keys(compose.services)).toEqual(["validator", "nginx"]);
    expect(compose.services.validator.deploy.replicas).toBe(3);
    const service = parseAllDocuments(deploy("validator", "kubernetes", "--auth", "none-behind-proxy")).map((d) => d.toJS())[1];
    expect(service.metadata.name).toBe("validator");
    expect(deploy("validator", "nginx", "--auth", "none-behind-proxy")).toMatch(new RegExp(`server validator:${service.spec.ports[0].port} `));
  });

  it("a Redis-backed task server's compose file has N replicas, Redis, nginx, and the state key and store URL as references", () => {
    const out = mkdtempSync(join(tmpdir(), "kervan-deploy-out-"));
    const gen = spawnSync(process.execPath, ["bin/kervan.mjs", "gen", "test/deploy-check/task-keeper.yaml", "--out", out], { encoding: "utf8" });
    expect(gen.status).toBe(0);
    const text = deploy("task-keeper", "compose", "--out", out, "--auth", "bearer", "--replicas", "3");
    const compose = parseAllDocuments(text)[0].toJS();
    expect(Object.keys(compose.services).sort()).toEqual(["nginx", "redis", "task-keeper"]);
    expect(compose.services["task-keeper"].deploy.replicas).toBe(3);
    const env = compose.services["task-keeper"].environment;
    for (const key of ["KERVAN_STATE_KEY", "KERVAN_TASKS_REDIS_URL", "TASK_KEEPER_TOKEN"]) expect(env[key]).toMatch(new RegExp(`^\\$\\{${key}:\\?`));
    expect(compose.services.nginx.ports).toEqual(["127.0.0.1:8080:8080"]);
    // podman-compose reads YAML 1.1, where a bare `no` is false: Redis's options must stay strings there too.
    const as11 = parseAllDocuments(text, { version: "1.1" })[0].toJS();
    expect(as11.services.redis.command).toEqual(["redis-server", "--protected-mode", "no", "--save", "", "--appendonly", "no"]);
  }, 60_000);

  it("refuses an unknown target or server", () => {
    const bad = spawnSync(process.execPath, ["bin/kervan.mjs", "deploy", "validator", "--target", "helm"], { encoding: "utf8" });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("deploy needs --target docker, kubernetes, nginx or compose");
    const missing = spawnSync(process.execPath, ["bin/kervan.mjs", "deploy", "nope", "--target", "docker"], { encoding: "utf8" });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("no generated server nope");
  });
});
