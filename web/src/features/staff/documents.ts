import { graphql } from '../../graphql';

export const ACCOUNT = graphql(`
  fragment StaffAccount on StaffMember @_unmask {
    id
    email
    role
    status
    twoFactorEnabled
    lastSignInAt
    brand {
      id
      name
    }
    subBrand {
      id
      name
    }
  }
`);

export const StaffQuery = graphql(
  `
    query Staff($search: String) {
      staffMembers(search: $search) {
        ...StaffAccount
      }
      staffMembersTotal(search: $search) {
        value
        exact
      }
    }
  `,
  [ACCOUNT],
);

/** Platform admins choose any brand; a brand admin's is their own. */
export const BrandChoicesQuery = graphql(`
  query BrandChoices {
    brands(first: 200) {
      edges {
        node {
          id
          name
        }
      }
    }
  }
`);

export const InviteMutation = graphql(
  `
    mutation InviteStaff($input: InviteStaffInput!) {
      inviteStaff(input: $input) {
        ...StaffAccount
      }
    }
  `,
  [ACCOUNT],
);

export const ChangeRoleMutation = graphql(
  `
    mutation ChangeStaffRole($id: ID!, $input: StaffAssignmentInput!) {
      changeStaffRole(id: $id, input: $input) {
        ...StaffAccount
      }
    }
  `,
  [ACCOUNT],
);

export const DisableMutation = graphql(
  `
    mutation DisableStaff($id: ID!) {
      disableStaff(id: $id) {
        ...StaffAccount
      }
    }
  `,
  [ACCOUNT],
);
export const EnableMutation = graphql(
  `
    mutation EnableStaff($id: ID!) {
      enableStaff(id: $id) {
        ...StaffAccount
      }
    }
  `,
  [ACCOUNT],
);
export const ResetPasswordMutation = graphql(
  `
    mutation ResetStaffPassword($id: ID!) {
      resetStaffPassword(id: $id) {
        ...StaffAccount
      }
    }
  `,
  [ACCOUNT],
);
export const ResetTwoFactorMutation = graphql(
  `
    mutation ResetStaffTwoFactor($id: ID!) {
      resetStaffTwoFactor(id: $id) {
        ...StaffAccount
      }
    }
  `,
  [ACCOUNT],
);
