/** One sample line of a Prometheus text exposition: `name{label="value",…} 12`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A /metrics answer, parsed: the families it declares (# TYPE) and every sample. */
export interface Exposition {
  /** Family name → type (counter, gauge, histogram, summary, untyped). */
  types: Map<string, string>;
  samples: Sample[];
  /**
   * The series names it exposes: each family's name, plus `_bucket`, `_sum`, `_count` for histograms (and
   * `_sum`, `_count` for summaries), whether or not a labelled family has a sample yet.
   */
  names(): Set<string>;
  /** Sum of the samples of `name` whose labels include `labels` (0 when none). */
  sum(name: string, labels?: Record<string, string>): number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses the Prometheus text format (what prom-client writes), enough for tests. */
export function parseExposition(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('# TYPE ')) {
      const [name, type] = line.slice(7).split(' ');
      types.set(name, type);
      continue;
    }
    if (!line || line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL))
      labels[key] = value.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return {
    types,
    samples,
    names() {
      const names = new Set<string>(samples.map((s) => s.name));
      for (const [name, type] of types) {
        names.add(name);
        if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
        if (type === 'summary') for (const suffix of ['_sum', '_count']) names.add(name + suffix);
      }
      return names;
    },
    sum(name, labels = {}) {
      return samples
        .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
        .reduce((total, s) => total + s.value, 0);
    },
  };
}

/** GET `url` (a /metrics endpoint) and parse it; fails on anything but a 200 in the text format. */
export async function scrapeMetrics(url: string): Promise<Exposition> {
  const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${body.slice(0, 200)}`);
  if (!/^text\/plain/.test(res.headers.get('content-type') ?? ''))
    throw new Error(`GET ${url} is not the Prometheus text format (${res.headers.get('content-type')})`);
  return parseExposition(body);
}
