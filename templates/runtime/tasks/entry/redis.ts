// Entry for servers whose spec keeps tasks in Redis: only these bundle the Redis client.
export { openRedisStore } from "../redis-store.js";
