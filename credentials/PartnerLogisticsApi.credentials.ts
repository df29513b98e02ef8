import type {
	ICredentialDataDecryptedObject,
	IHttpRequestOptions,
	Icon,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

// No declarative `test`: n8n would follow redirects with the API key. The nodes name their own
// (`testedBy: 'testApiKey'`, nodes/PartnerLogistics/methods/testApiKey.ts).
export class PartnerLogisticsApi implements ICredentialType {
	name = 'partnerLogisticsApi';
	displayName = 'Partner Logistics API';
	icon: Icon = {
		light: 'file:../icons/partnerLogistics.svg',
		dark: 'file:../icons/partnerLogistics.dark.svg',
	};
	// This version's README on npm, never changed (test/package/release.test.ts keeps it current).
	documentationUrl =
		'https://www.npmjs.com/package/n8n-nodes-partner-logistics/v/0.1.0#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. https://logistics.example.com/api/v1',
			hint: 'The API address from your partner onboarding, ending in /api/v1. A trailing slash is fine.',
			description: 'Address of the Partner Logistics API including the version prefix /api/v1',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			hint: 'Organization API key from the partner portal. It is sent as the X-SVC-API-Key header.',
		},
		{
			displayName: 'Webhook Signing Secret',
			name: 'webhookSigningSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			placeholder: 'e.g. whsec_...',
			hint: 'Only needed by the Partner Logistics Trigger: the secret the portal shows for your webhook endpoint',
		},
		{
			displayName: 'Previous Signing Secret',
			name: 'previousWebhookSigningSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			hint: 'While rotating the webhook secret, put the old one here so events signed with either are accepted. Clear it once rotation is done.',
		},
	];

	// Not n8n's `{{$credentials.apiKey}}` template, which it evaluates per request: about a
	// millisecond per item in a 1,000-item batch (docs/benchmarks.md).
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, 'X-SVC-API-Key': String(credentials.apiKey ?? '') },
		};
	}
}
