// The campaign screens' GraphQL (docs/campaigns.md): a campaign's input is the documented JSON
// body, validated by the campaign engine, so the screens and the establishment API cannot differ.
import { graphql, type ResultOf } from '../../graphql';

export const CampaignFields = graphql(`
  fragment CampaignFields on Campaign {
    id
    title
    modalTitle
    description
    legalTerms
    duration
    startsAt
    endsAt
    type
    status
    multiplier
    budget
    totalAwarded
    prizes
    targeting
    isTemplate
    verticals
    clonedFromId
    updatedAt
  }
`);

export const CampaignsQuery = graphql(
  `
    query Campaigns($status: CampaignStatus, $isTemplate: Boolean) {
      campaigns(status: $status, isTemplate: $isTemplate) {
        ...CampaignFields
      }
      campaignsTotal(status: $status, isTemplate: $isTemplate) {
        value
        exact
      }
    }
  `,
  [CampaignFields],
);

export const CampaignQuery = graphql(
  `
    query Campaign($id: ID!) {
      campaign(id: $id) {
        ...CampaignFields
        settlement {
          status
          awarded
          attempts
          lastError
        }
      }
    }
  `,
  [CampaignFields],
);
export type Campaign = ResultOf<typeof CampaignFields>;

export const CreateCampaign = graphql(`
  mutation CreateCampaign($input: JSON!) {
    createCampaign(input: $input) {
      id
    }
  }
`);

export const UpdateCampaign = graphql(
  `
    mutation UpdateCampaign($id: ID!, $input: JSON!) {
      updateCampaign(id: $id, input: $input) {
        ...CampaignFields
      }
    }
  `,
  [CampaignFields],
);

export const MoveCampaign = graphql(`
  mutation MoveCampaign($id: ID!, $status: String!) {
    updateCampaignStatus(id: $id, status: $status) {
      id
      status
    }
  }
`);

export const CloneCampaign = graphql(`
  mutation CloneCampaign($id: ID!, $input: JSON) {
    cloneCampaign(id: $id, input: $input) {
      id
    }
  }
`);

export const DeleteCampaign = graphql(`
  mutation DeleteCampaign($id: ID!) {
    deleteCampaign(id: $id) {
      campaignId
      keptAwards
    }
  }
`);

/** What a leaderboard screen shows of its campaign: read by the query, pushed by the subscription. */
export const LeaderboardFields = graphql(`
  fragment LeaderboardFields on Campaign @_unmask {
    id
    title
    type
    status
    startsAt
    endsAt
    prizes
    leaderboard(first: $first) {
      rank
      customerId
      playerName
      externalId
      points
      reachedAt
    }
  }
`);

export const LeaderboardQuery = graphql(
  `
    query Leaderboard($id: ID!, $first: Int!) {
      campaign(id: $id) {
        ...LeaderboardFields
      }
    }
  `,
  [LeaderboardFields],
);

export const StandingQuery = graphql(`
  query Standing($id: ID!, $player: String!) {
    campaign(id: $id) {
      id
      standing(player: $player) {
        rank
        customerId
        playerName
        externalId
        points
        participants
        prize
      }
    }
  }
`);

import { msg, t } from '../../i18n';

export const campaignUrl = (id: string) => `/campaigns/${encodeURIComponent(id)}`;
export const leaderboardUrl = (id: string) => `${campaignUrl(id)}/leaderboard`;

/** In English, marked for the catalogs: shown as t(TYPE_LABEL[type]). */
export const TYPE_LABEL = {
  daily_reward_simple: msg('Daily reward'),
  daily_reward_progressive: msg('Daily streak'),
  tournament: msg('Tournament'),
} as const;

export const STATUS_COLOR: Record<string, string> = {
  draft: 'gray',
  in_progress: 'teal',
  paused: 'yellow',
  cancelled: 'red',
  completed: 'indigo',
};
const STATUS_LABEL: Record<string, string> = {
  draft: msg('draft'),
  in_progress: msg('in progress'),
  paused: msg('paused'),
  cancelled: msg('cancelled'),
  completed: msg('completed'),
};
export const statusLabel = (s: string) => t(STATUS_LABEL[s] ?? s.replace('_', ' '));
