import { readFileSync } from 'node:fs';
import { readAskedFormByCues } from '../workflows/analysis/form-reader';
import { askedFormFromParsed } from '../activities/analysis/extraction/answer-form';
import { parseQuestion } from '../activities/analysis/extraction/question-parser';
import { readingDisagreements } from '../workflows/analysis/answer-form';
const file = process.argv[2]!;
for (const l of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
  const q = JSON.parse(l);
  const a = askedFormFromParsed(parseQuestion(q.question));
  const b = readAskedFormByCues(q.question);
  const d = a ? readingDisagreements(a, b) : null;
  const f = (x: any) => x ? `${x.kind}|${x.scale}|${x.rounding}|${x.periods?.join('+')}|${x.periodCount}|${x.operation}${x.definition ? `|def ${x.definition.operator}` : ''}` : 'null';
  console.log(q.financebench_id ?? '', q.question.slice(0, 90));
  console.log('   P:', f(a), '\n   C:', f(b), d && d.length ? `\n   DISAGREE ${JSON.stringify(d)}` : '');
}
