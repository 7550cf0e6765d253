// prom-client's metric classes from their own modules (src/watch/metrics.ts says why): each file's
// module.exports is the class its index exports under that name, typed by the index's declarations.
declare module 'prom-client/lib/registry.js' {
  import { Registry } from 'prom-client';
  export = Registry;
}
declare module 'prom-client/lib/counter.js' {
  import { Counter } from 'prom-client';
  export = Counter;
}
declare module 'prom-client/lib/gauge.js' {
  import { Gauge } from 'prom-client';
  export = Gauge;
}
declare module 'prom-client/lib/histogram.js' {
  import { Histogram } from 'prom-client';
  export = Histogram;
}
