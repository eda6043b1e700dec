/*
 * The stack launcher (tools/stack) has no workspace alias in tsconfig.base.json, so it can only be
 * reached by a relative path, which the module-boundaries rule forbids between projects. The chaos
 * run starts the stack in-process (it kills and restarts the children), as the benchmark does
 * (tools/bench/src/stack-api.ts): this one file is the exception.
 */
/* eslint-disable @nx/enforce-module-boundaries */
export { seedStack, type SeedResult } from '../../stack/src/seed';
export { REPO_ROOT } from '../../stack/src/stack-layout';
export { parseReplicas } from '../../stack/src/replicas';
export { startStack, type RunningStack } from '../../stack/src/start-stack';
