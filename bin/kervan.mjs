#!/usr/bin/env node
// Runs the TypeScript CLI through tsx so a clone needs no separate build step.
import { register } from "tsx/esm/api";
register();
await import("../generator/cli.ts");
