/*
 * The stack launcher (tools/stack) has no workspace alias in tsconfig.base.json, so it can only be
 * reached by a relative path, which the module-boundaries rule forbids between projects. The
 * benchmark must run the stack in-process (it needs the children's pids), so this one file is the
 * exception. An `@orquestra/stack` alias would remove it.
 */
/* eslint-disable @nx/enforce-module-boundaries */
export { seedStack, type SeedResult } from '../../stack/src/seed';
export { REPO_ROOT } from '../../stack/src/stack-layout';
export { startStack, type RunningStack } from '../../stack/src/start-stack';
export { parseReplicas } from '../../stack/src/replicas';
export { cfsQuota, CpuLimitedCgroups, CpuLimitError, cpuStatDelta, type CpuStat } from '../../stack/src/cpu-limit';
export type { ReplicaInfo } from '../../stack/src/start-stack';
