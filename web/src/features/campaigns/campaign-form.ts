// A campaign as the form holds it (strings and '' while typing), the documented JSON body it
// sends, and the presets a new campaign can start from. The engine validates the body; the form
// only shapes it, so a refused field comes back named and is shown under its input.
import type { Campaign } from './documents';
import { msg, t } from '../../i18n';

export type CampaignType = 'daily_reward_simple' | 'daily_reward_progressive' | 'tournament';
export const DURATIONS = [
  'custom',
  'next_weekend',
  'next_week',
  'next_month',
  'next_year',
] as const;
export type Duration = (typeof DURATIONS)[number];
export const DURATION_LABEL: Record<Duration, string> = {
  custom: msg('Custom dates'),
  next_weekend: msg('Next weekend (Sat–Sun)'),
  next_week: msg('Next week (Mon–Sun)'),
  next_month: msg('Next month'),
  next_year: msg('Next year'),
};

/** The product verticals a campaign's qualifying play may span (docs/compliance.md). */
export const VERTICALS = ['casino', 'sports', 'poker', 'bingo', 'lottery'] as const;
export type Vertical = (typeof VERTICALS)[number];

export type PrizeRow = {
  coinPrize: number | '';
  productPrize: string;
  quantity: number | '';
  catalogPrize: string;
  day: number | '';
  rank: string;
};

export type CampaignForm = {
  title: string;
  modalTitle: string;
  description: string;
  legalTerms: string;
  type: CampaignType;
  duration: Duration;
  startDate: string;
  endDate: string;
  multiplier: number | '';
  budget: number | '';
  termsAccepted: boolean;
  isTemplate: boolean;
  prizes: PrizeRow[];
  /** Targeting as JSON text (conditions, included and excluded users); empty for everyone. */
  targeting: string;
  /** Under a UKGC sub-brand at most one: the engine refuses mixed-product campaigns. */
  verticals: Vertical[];
};

export const prizeRow = (over: Partial<PrizeRow> = {}): PrizeRow => ({
  coinPrize: 0,
  productPrize: '',
  quantity: 0,
  catalogPrize: '',
  day: 0,
  rank: '',
  ...over,
});

export const emptyForm = (): CampaignForm => ({
  title: '',
  modalTitle: '',
  description: '',
  legalTerms: '',
  type: 'daily_reward_simple',
  duration: 'next_week',
  startDate: '',
  endDate: '',
  multiplier: 1,
  budget: '',
  termsAccepted: false,
  isTemplate: false,
  prizes: [prizeRow({ coinPrize: 50 })],
  targeting: '',
  verticals: [],
});

/** Ready-made starting points; each uses a preset duration, so its dates follow today. */
export const PRESETS: { id: string; label: string; form: () => CampaignForm }[] = [
  {
    id: 'daily-login',
    label: msg('Daily login bonus (next week, 50 coins a day)'),
    form: () => ({ ...emptyForm(), title: t('Daily login bonus'), duration: 'next_week' }),
  },
  {
    id: 'streak',
    label: msg('7-day streak (next month, growing prizes)'),
    form: () => ({
      ...emptyForm(),
      title: t('Seven-day streak'),
      type: 'daily_reward_progressive',
      duration: 'next_month',
      prizes: [10, 20, 30, 40, 50, 60, 100].map((coins, i) =>
        prizeRow({ coinPrize: coins, day: i + 1 }),
      ),
    }),
  },
  {
    id: 'weekend-tournament',
    label: msg('Weekend tournament (top 10 win)'),
    form: () => ({
      ...emptyForm(),
      title: t('Weekend tournament'),
      type: 'tournament',
      duration: 'next_weekend',
      budget: 3000,
      prizes: [
        prizeRow({ coinPrize: 1000, rank: '1' }),
        prizeRow({ coinPrize: 500, rank: '2-3' }),
        prizeRow({ coinPrize: 100, rank: '4-10' }),
      ],
    }),
  },
];

const MIDNIGHT = /T00:00:00(\.000)?Z$/;
/** A stored instant as the form shows it: a whole UTC day as YYYY-MM-DD, else the instant. */
const startText = (iso: string) => (MIDNIGHT.test(iso) ? iso.slice(0, 10) : iso);
/** Ends are exclusive: a midnight end shows the day before, which a date-only end includes. */
const endText = (iso: string) =>
  MIDNIGHT.test(iso) ? new Date(Date.parse(iso) - 86_400_000).toISOString().slice(0, 10) : iso;

type StoredPrize = Partial<Record<keyof PrizeRow, unknown>>;

/** The form for an existing campaign (to edit it, or to start a copy from it). */
export function formOf(c: Campaign): CampaignForm {
  const targeting = (c.targeting ?? {}) as Record<string, unknown[] | boolean>;
  const hasTargeting = Object.values(targeting).some((v) => (Array.isArray(v) ? v.length : v));
  return {
    title: c.title,
    modalTitle: c.modalTitle ?? '',
    description: c.description ?? '',
    legalTerms: c.legalTerms ?? '',
    type: c.type,
    duration: (DURATIONS as readonly string[]).includes(c.duration ?? '')
      ? (c.duration as Duration)
      : 'custom',
    startDate: startText(c.startsAt),
    endDate: endText(c.endsAt),
    multiplier: c.multiplier,
    budget: c.budget ?? '',
    termsAccepted: true,
    isTemplate: c.isTemplate,
    prizes: ((c.prizes ?? []) as StoredPrize[]).map((p) =>
      prizeRow({
        coinPrize: Number(p.coinPrize ?? 0),
        productPrize: String(p.productPrize ?? ''),
        quantity: Number(p.quantity ?? 0),
        catalogPrize: String(p.catalogPrize ?? ''),
        day: Number(p.day ?? 0),
        rank: String(p.rank ?? ''),
      }),
    ),
    targeting: hasTargeting ? JSON.stringify(targeting, null, 2) : '',
    verticals: [...c.verticals],
  };
}

const num = (v: number | '') => (v === '' ? 0 : v);
const orNull = (s: string) => (s.trim() ? s : null);

/**
 * The documented body. Targeting that is not JSON is reported as the field's own problem
 * (nothing is sent); every other rule is the engine's.
 */
export function bodyOf(
  f: CampaignForm,
): { body: Record<string, unknown> } | { targetingError: string } {
  let targeting: unknown;
  if (f.targeting.trim()) {
    try {
      targeting = JSON.parse(f.targeting);
    } catch {
      return { targetingError: 'is not valid JSON' };
    }
  }
  return {
    body: {
      title: f.title,
      modalTitle: orNull(f.modalTitle),
      description: orNull(f.description),
      legalTerms: orNull(f.legalTerms),
      type: f.type,
      duration: f.duration,
      ...(f.duration === 'custom' ? { startDate: f.startDate, endDate: f.endDate } : {}),
      multiplier: num(f.multiplier),
      budget: f.budget === '' ? null : f.budget,
      termsAccepted: f.termsAccepted,
      isTemplate: f.isTemplate,
      prizes: f.prizes.map((p) => ({
        coinPrize: num(p.coinPrize),
        productPrize: p.productPrize.trim(),
        quantity: num(p.quantity),
        catalogPrize: p.catalogPrize,
        day: num(p.day),
        rank: p.rank.trim(),
      })),
      ...(targeting === undefined ? {} : { targeting }),
      verticals: f.verticals,
    },
  };
}
