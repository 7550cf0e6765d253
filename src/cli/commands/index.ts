// Every command of the CLI, one file each. A command registers itself on the program and
// reports its exit code through `setExit`; it reads and writes through the run's io host; heavy modules are imported inside the action.
import type { RegisterCommand } from './register-command.js';
import { registerValidate } from './validate.js';
import { registerSchema } from './schema.js';
import { registerPolicy } from './policy.js';
import { registerGraph } from './graph.js';
import { registerPlan } from './plan.js';
import { registerApply } from './apply.js';
import { registerDrift } from './drift.js';
import { registerShow } from './show.js';
import { registerImport } from './import.js';
import { registerDiscover } from './discover.js';
import { registerState } from './state.js';
import { registerOutputs } from './outputs.js';
import { registerHistory } from './history.js';
import { registerWatch } from './watch.js';
import { registerGet } from './get.js';
import { registerNotify } from './notify.js';
import { registerLocalCloud } from './local-cloud.js';
import { registerVersion } from './version.js';
import { registerCompletion } from './completion.js';

export type { RegisterCommand, SetExit } from './register-command.js';

export const COMMANDS: RegisterCommand[] = [
  registerValidate,
  registerSchema,
  registerGraph,
  registerPolicy,
  registerPlan,
  registerApply,
  registerDrift,
  registerShow,
  registerImport,
  registerDiscover,
  registerState,
  registerOutputs,
  registerHistory,
  registerWatch,
  registerGet,
  registerNotify,
  registerLocalCloud,
  registerVersion,
  registerCompletion,
];
