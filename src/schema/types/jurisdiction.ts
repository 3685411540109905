// Jurisdiction rules (docs/compliance.md): the regulator a sub-brand answers to, set by platform
// admins alone, and the product verticals campaigns and engine definitions carry.
import {
  setJurisdiction,
  type JurisdictionView,
  type MixedIncentive,
} from '../../domain/jurisdiction/set-jurisdiction.js';
import { builder } from '../builder.js';
import { effect } from '../effects.js';

export const JurisdictionEnum = builder.enumType('Jurisdiction', {
  description: 'The regulator whose incentive rules apply to a sub-brand (docs/compliance.md).',
  values: {
    none: { description: 'No jurisdiction rule on incentives.' },
    UKGC: {
      description:
        'UK Gambling Commission: no mixed-product incentives (a campaign or engine definition spans at most one vertical).',
    },
    MGA: {
      description:
        'Malta Gaming Authority: no vertical rule; the responsible-gaming gate applies, as under every jurisdiction.',
    },
  } as const,
});

export const ProductVerticalEnum = builder.enumType('ProductVertical', {
  description: 'A product whose play can qualify for an incentive.',
  values: ['casino', 'sports', 'poker', 'bingo', 'lottery'] as const,
});

const MixedIncentiveRef = builder.objectRef<MixedIncentive>('MixedIncentive').implement({
  description:
    'A live incentive spanning more than one vertical: a running or paused campaign, or an active engine definition.',
  fields: (t) => ({
    kind: t.exposeString('kind', { description: '`campaign` or `definition`.' }),
    id: t.exposeID('id'),
    name: t.exposeString('name', { description: "The campaign's title or the definition's code." }),
    environment: t.string({
      nullable: true,
      description: "A campaign's environment; null for a definition (they serve both).",
      resolve: (m) => (m.kind === 'campaign' ? m.environment : null),
    }),
    status: t.string({
      nullable: true,
      description: "A campaign's status; null for a definition (always active here).",
      resolve: (m) => (m.kind === 'campaign' ? m.status : null),
    }),
    verticals: t.field({ type: [ProductVerticalEnum], resolve: (m) => m.verticals }),
  }),
});

const JurisdictionSettingRef = builder
  .objectRef<JurisdictionView>('JurisdictionSetting')
  .implement({
    description: "A sub-brand's jurisdiction and its live mixed-product incentives.",
    fields: (t) => ({
      subBrandId: t.exposeID('subBrandId'),
      jurisdiction: t.field({ type: JurisdictionEnum, resolve: (j) => j.jurisdiction }),
      mixedIncentives: t.field({
        type: [MixedIncentiveRef],
        description:
          'Live incentives spanning more than one vertical: what setting UKGC would refuse (always empty under UKGC).',
        resolve: (j) => j.mixedIncentives,
      }),
    }),
  });

builder.prismaObjectField('SubBrand', 'jurisdiction', (t) =>
  t.field({ type: JurisdictionEnum, resolve: (s) => s.jurisdiction }),
);

builder.mutationField('setJurisdiction', (t) =>
  t.field({
    extensions: effect('changes'),
    type: JurisdictionSettingRef,
    authScopes: { admin: true },
    description:
      'Platform admins only: the operator answers for the jurisdiction it sets. UKGC is refused (conflict, listing ' +
      'them) while running or paused campaigns or active definitions span more than one vertical.',
    args: {
      subBrandId: t.arg.id({ required: true }),
      jurisdiction: t.arg({ type: JurisdictionEnum, required: true }),
    },
    resolve: (_root, { subBrandId, jurisdiction }, ctx) =>
      setJurisdiction(ctx.db, String(subBrandId), { jurisdiction }, ctx.now()),
  }),
);
