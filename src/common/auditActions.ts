/**
 * The audit trail's closed list of actions (issue 21) and the kinds of target they act on. Shared by the server (what
 * a route may record, the list's filters) and the browser (the Activity log's filter and words: locales/*\/audit.json).
 */
export const AUDIT_ACTIONS = [
  'membership.invited',
  'membership.roleChanged',
  'membership.deleted',
  'membership.provisioned',
  'invitation.resent',
  'organization.twoStepRuleChanged',
  'subscription.created',
  'subscription.updated',
  'subscription.confirmedUpdated',
  'subscription.cancelled',
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'billingContact.created',
  'billingContact.updated',
  'billingContact.deleted',
  'users.bulkUpdated',
  'user.nameIdChanged',
  'account.nameChanged',
  'account.passwordChanged',
  'account.twoStepAdded',
  'account.twoStepRemoved',
  'account.recoveryCodesGenerated',
  'signIn.succeeded',
  'signIn.locked',
  'signIn.recoveryCodeUsed',
  'sso.connectionCreated',
  'sso.connectionChanged',
  'sso.connectionDeleted',
  'sso.connectionTested',
  'sso.domainAdded',
  'sso.domainVerified',
  'sso.domainChanged',
  'sso.domainDeleted',
  'apiClient.created',
  'apiClient.changed',
  'apiClient.secretRotated',
  'apiClient.revoked',
  'webhook.endpointCreated',
  'webhook.endpointChanged',
  'webhook.endpointDeleted',
  'webhook.deliveryResent',
  'webhook.testEventSent',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_TARGET_TYPES = ['admin', 'organization', 'subscription', 'contact', 'billingContact', 'users', 'user', 'ssoConnection', 'ssoDomain', 'apiClient', 'webhookEndpoint'] as const;

export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

export function isAuditAction(value: unknown): value is AuditAction {
  return (AUDIT_ACTIONS as readonly unknown[]).includes(value);
}
