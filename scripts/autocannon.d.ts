// autocannon 9 ships no types: the part scripts/bench-api.ts uses.
declare module 'autocannon' {
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    max: number;
    [percentile: string]: number;
  }
  interface Client {
    setHeaders(headers: Record<string, string>): void;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    setupClient?: (client: Client) => void;
  }
  interface Result {
    requests: Histogram & { total: number };
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    duration: number;
  }
  interface Tracker extends PromiseLike<Result> {
    on(event: 'response', listener: (client: Client, statusCode: number, resBytes: number, responseTime: number) => void): Tracker;
  }
  function autocannon(options: Options): Tracker;
  export default autocannon;
}
