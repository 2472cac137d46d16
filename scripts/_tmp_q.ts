import { readFileSync } from 'node:fs';
import { readAskedFormByCues } from '../workflows/analysis/form-reader';
import { askedFormFromParsed } from '../activities/analysis/extraction/answer-form';
import { parseQuestion } from '../activities/analysis/extraction/question-parser';
import { readingDisagreements } from '../workflows/analysis/answer-form';
const f = (x: any) => x ? `${x.kind}|${x.scale}|${x.rounding}|${x.periods?.join('+')}|${x.periodCount}|${x.operation}${x.definition ? `|def ${x.definition.operator}` : ''}` : 'null';
for (const q of readFileSync('/tmp/fc/qs.txt', 'utf8').split('\n').filter(Boolean)) {
  const p = parseQuestion(q);
  const a = askedFormFromParsed(p);
  const b = readAskedFormByCues(q);
  const d = a ? readingDisagreements(a, b) : null;
  console.log(q.slice(0, 100)); console.log('   P:', f(a), a ? '' : p.reason, '\n   C:', f(b), d && d.length ? `\n   DISAGREE ${JSON.stringify(d)}` : '');
}
