// `npm run admin -- jurisdiction …`: a sub-brand's jurisdiction (docs/compliance.md, "Jurisdiction
// rules"), over the same domain function as GraphQL's setJurisdiction and the backoffice. The CLI
// is the platform operator's: whoever runs it may set any sub-brand's.
import {
  describeIncentive,
  readJurisdiction,
  setJurisdiction,
  type JurisdictionView,
  type MixedIncentive,
} from '../domain/jurisdiction/set-jurisdiction.js';
import type { CommandName } from './usage.js';
import { lines, str, type Command } from './command.js';

type JurisdictionCommandName = Extract<CommandName, `jurisdiction ${string}`>;

const RULES = {
  none: 'no jurisdiction rule on incentives',
  UKGC: 'UK Gambling Commission: no campaign or engine definition may span more than one product vertical',
  MGA: 'Malta Gaming Authority: no vertical rule',
} as const;

const incentiveJson = (m: MixedIncentive) => ({
  kind: m.kind,
  id: m.id,
  name: m.name,
  environment: m.kind === 'campaign' ? m.environment : null,
  status: m.kind === 'campaign' ? m.status : null,
  verticals: m.verticals,
});

const json = (j: JurisdictionView) => ({
  sub_brand_id: j.subBrandId,
  jurisdiction: j.jurisdiction,
  mixed_incentives: j.mixedIncentives.map(incentiveJson),
});

const text = (j: JurisdictionView) => {
  const head = `Sub-brand ${j.subBrandId}: ${j.jurisdiction} (${RULES[j.jurisdiction]}).`;
  if (j.jurisdiction === 'UKGC') return head;
  return `${head}\n${lines(
    j.mixedIncentives,
    (m) => `  mixed-product (UKGC would refuse it): ${describeIncentive(m)}`,
    '  No live incentive spans more than one vertical.',
  )}`;
};

export const JURISDICTION_COMMANDS: Record<JurisdictionCommandName, Command> = {
  'jurisdiction show': {
    options: {},
    positionals: 1,
    async run(db, _v, [id]) {
      const j = await readJurisdiction(db, id!, new Date());
      return { json: json(j), text: text(j) };
    },
  },
  'jurisdiction set': {
    options: { jurisdiction: { type: 'string' } },
    positionals: 1,
    async run(db, v, [id]) {
      const j = await setJurisdiction(
        db,
        id!,
        { jurisdiction: str(v, 'jurisdiction') as 'none' },
        new Date(),
      );
      return {
        json: json(j),
        text: `${text(j)}\nThe operator answers for this setting: it must name the regulator that licenses the sub-brand.`,
      };
    },
  },
};
