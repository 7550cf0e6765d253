// The engine's modules a bench drives directly (providers, planner, applier, state), loaded from the
// built dist/ as the CLI loads them; `send` is what moor's transport sends with when given no fetch.
const dist = (p) => import(new URL(`../dist/${p}`, import.meta.url).href);

export async function engineModules() {
  const [
    { createProviders },
    { RequestScheduler },
    { loadAndValidate },
    { makePlan },
    { applyPlan },
    { openStateBackend },
    { StateRecorder },
    { SERVICE_NAMES },
    { BUILT_IN_KINDS },
    { defaultFetch },
  ] = await Promise.all([
    dist('providers/providers.js'),
    dist('providers/request-scheduler.js'),
    dist('engine/validate/index.js'),
    dist('engine/plan/planner.js'),
    dist('engine/apply/applier.js'),
    dist('engine/state/open-backend.js'),
    dist('engine/state/recorder.js'),
    dist('core/services.js'),
    dist('resources/registry.js'),
    dist('providers/http-fetch.js'),
  ]);
  return {
    createProviders,
    RequestScheduler,
    loadAndValidate,
    makePlan,
    applyPlan,
    openStateBackend,
    StateRecorder,
    SERVICE_NAMES,
    BUILT_IN_KINDS,
    send: defaultFetch(),
  };
}
