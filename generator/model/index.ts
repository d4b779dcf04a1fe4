export type * from "./diagnostic.js";
export type * from "./spec.js";
export type * from "./ir.js";
export type * from "./plan.js";
export type * from "./output.js";
