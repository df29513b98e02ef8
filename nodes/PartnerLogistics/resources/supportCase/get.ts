import type { INodeProperties } from 'n8n-workflow';

import { caseIdField } from './shared';

export const supportCaseGetDescription: INodeProperties[] = [caseIdField('get')];
