/**
 * The Node.js options the server is started with, for the processes that start one (the benchmark,
 * the e2e harness): light, unlike `@fieldlink/server/testing`, which loads the whole server.
 */
export { missingServerNodeOptions, SERVER_NODE_OPTIONS } from '../src/node-options';
