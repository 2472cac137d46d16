import {
  TOOL_SCHEMAS,
  type ToolInput,
  type ToolOutput,
} from '../../workflows/analysis/tool-registry';
import { findFramework, FRAMEWORKS } from '../../workflows/analysis/frameworks';
import { compareDecimal, subtractDecimal } from '../../workflows/analysis/decimal';
import { ErrorType, permanentFailure } from '../../workflows/errors';

type Row = ToolOutput<'compare_frameworks'>['rows'][number];

function evaluate(operator: Row['operator'], observed: string, threshold: string): boolean {
  const c = compareDecimal(observed, threshold);
  switch (operator) {
    case '>=':
      return c >= 0;
    case '>':
      return c > 0;
    case '<=':
      return c <= 0;
    case '<':
      return c < 0;
  }
}

/** compare_frameworks: pass / breach / margin per requirement, or for one explicit threshold. */
export function createCompareFrameworks() {
  return async function compare_frameworks(
    raw: ToolInput<'compare_frameworks'>,
  ): Promise<ToolOutput<'compare_frameworks'>> {
    const input = TOOL_SCHEMAS.compare_frameworks.input.parse(raw);
    const requirements = input.threshold
      ? [
          {
            id: 'requested_threshold',
            metric: input.threshold.metric,
            description: `${input.threshold.metric} ${input.threshold.operator} ${input.threshold.value}`,
            operator: input.threshold.operator,
            threshold: input.threshold.value,
            source: 'the request',
          },
        ]
      : (() => {
          const f = findFramework(input.framework ?? '');
          if (!f)
            throw permanentFailure(
              ErrorType.InvalidToolInput,
              `Unknown framework "${input.framework}"; known: ${FRAMEWORKS.map((x) => x.id).join(', ')}`,
            );
          return f.requirements;
        })();
    const rows: Row[] = requirements.map((req) => {
      const obs = input.observed.find((o) => o.metric === req.metric);
      if (!obs) {
        return {
          requirementId: req.id,
          metric: req.metric,
          description: req.description,
          operator: req.operator,
          threshold: req.threshold,
          observed: null,
          status: 'missing',
          margin: null,
          source: req.source,
          claimId: null,
        };
      }
      const pass = evaluate(req.operator, obs.value, req.threshold);
      return {
        requirementId: req.id,
        metric: req.metric,
        description: req.description,
        operator: req.operator,
        threshold: req.threshold,
        observed: obs.value,
        status: pass ? 'pass' : 'breach',
        margin: subtractDecimal(obs.value, req.threshold),
        source: req.source,
        claimId: obs.claimId,
      };
    });
    const missing = rows.filter((r) => r.status === 'missing').length;
    const breaches = rows.filter((r) => r.status === 'breach');
    const framework = input.threshold ? 'requested_threshold' : (input.framework as string);
    const version = input.threshold ? 'n/a' : (findFramework(framework)?.version ?? 'unknown');
    return {
      framework,
      version,
      rows,
      claims: [],
      citations: [],
      // Arithmetic is exact; what is uncertain is coverage: a missing metric cannot be judged.
      confidence:
        rows.length === 0
          ? 0
          : missing === 0
            ? 1
            : Math.max(0.3, 0.8 * (1 - missing / rows.length)),
      errorTag: missing > 0 ? 'requirements_without_observed_value' : null,
      summary:
        rows.length === 0
          ? 'No requirement to compare'
          : `${rows.length - missing}/${rows.length} requirements assessed: ${breaches.length} breach(es)${breaches.length ? ` (${breaches.map((b) => `${b.requirementId} ${b.observed} vs ${b.threshold}`).join(', ')})` : ''}${missing ? `; ${missing} without a reported value` : ''}`,
    };
  };
}
