// Turns measurements into the printed table and the target checks of issue 2.
import type { LoadResult } from './load.ts';

/** One measured run: the load generator's view plus the server's own CPU time. */
export interface RunResult extends LoadResult {
  /** The server process's CPU time (user + system) per successful request, in microseconds. */
  cpuUsPerRequest: number;
  /** How busy the load generator was, as a share of one core; near 1 means it was the limit. */
  generatorBusy: number;
}

export interface ScenarioResult {
  name: string;
  service: RunResult;
  /** The same request on the bare node:http server, when it has one. */
  bare?: RunResult | undefined;
}

export interface TargetCheck {
  target: string;
  measured: string;
  pass: boolean;
}

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

export function ratio(scenario: ScenarioResult): number | undefined {
  return scenario.bare ? scenario.service.requestsPerSecond / scenario.bare.requestsPerSecond : undefined;
}

/** A Markdown table, so a run's output can be pasted into docs/benchmarks.md as it is. */
export function resultsTable(scenarios: readonly ScenarioResult[]): string {
  const lines = [
    '| Scenario | req/s | p50 ms | p99 ms | CPU µs/req | bare req/s | bare p50 ms | bare p99 ms | bare CPU µs/req | req/s ratio to bare | CPU ratio (bare/service) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const scenario of scenarios) {
    const { service, bare } = scenario;
    const share = ratio(scenario);
    const cells = [
      scenario.name,
      fixed(service.requestsPerSecond, 0),
      fixed(service.p50Ms, 2),
      fixed(service.p99Ms, 2),
      fixed(service.cpuUsPerRequest, 0),
      bare ? fixed(bare.requestsPerSecond, 0) : '-',
      bare ? fixed(bare.p50Ms, 2) : '-',
      bare ? fixed(bare.p99Ms, 2) : '-',
      bare ? fixed(bare.cpuUsPerRequest, 0) : '-',
      share === undefined ? '-' : `${fixed(share * 100, 0)}%`,
      bare ? `${fixed((bare.cpuUsPerRequest / service.cpuUsPerRequest) * 100, 0)}%` : '-',
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

export function targetsTable(checks: readonly TargetCheck[]): string {
  const lines = ['| Target | Measured | Result |', '| --- | --- | --- |'];
  for (const check of checks) {
    lines.push(`| ${check.target} | ${check.measured} | ${check.pass ? 'pass' : '**FAIL**'} |`);
  }
  return lines.join('\n');
}

export function atLeastShareOfBare(scenario: ScenarioResult, minimum: number): TargetCheck {
  const share = ratio(scenario) ?? Number.NaN;
  return {
    target: `${scenario.name}: at least ${minimum * 100}% of the bare ceiling`,
    measured: `${fixed(share * 100, 0)}%`,
    pass: share >= minimum,
  };
}

export function p99Below(scenario: ScenarioResult, limitMs: number): TargetCheck {
  return {
    target: `${scenario.name}: p99 under ${limitMs} ms`,
    measured: `${fixed(scenario.service.p99Ms, 2)} ms`,
    pass: scenario.service.p99Ms < limitMs,
  };
}

export function sameLatency(first: ScenarioResult, deep: ScenarioResult, tolerance: number): TargetCheck {
  const change = deep.service.p50Ms / first.service.p50Ms - 1;
  return {
    target: `${deep.name} p50 within ${tolerance * 100}% of ${first.name}`,
    measured: `${fixed(first.service.p50Ms, 2)} ms vs ${fixed(deep.service.p50Ms, 2)} ms (${change >= 0 ? '+' : ''}${fixed(change * 100, 0)}%)`,
    pass: Math.abs(change) <= tolerance,
  };
}

export function rssBelow(peakMb: number, limitMb: number): TargetCheck {
  return {
    target: `Service peak RSS under ${limitMb} MB`,
    measured: `${fixed(peakMb, 0)} MB`,
    pass: peakMb < limitMb,
  };
}

/** Any non-2xx response or socket error means the run measured something else. */
export function failuresOf(scenarios: readonly ScenarioResult[]): string[] {
  const problems: string[] = [];
  for (const scenario of scenarios) {
    for (const [side, result] of [
      ['service', scenario.service],
      ['bare', scenario.bare],
    ] as const) {
      if (result && result.failures > 0) {
        problems.push(
          `${scenario.name} (${side}): ${result.failures} failed requests ${JSON.stringify(result.statusCounts)}`,
        );
      }
    }
  }
  return problems;
}
