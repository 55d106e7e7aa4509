/** The single-sign-on gateway, /auth/gateway (SPEC 2.3, §7, §8): its saga and the action its screen dispatches. */
export { gatewayOpened, gatewaySaga, gatewayRequest, gatewayPathWithoutSignOut, partnerUrl, takeProject, RESUME_STORAGE_KEY, TOKENS_OPERATION, CHECK_OPERATION } from './gateway.js';
