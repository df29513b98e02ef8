import type { INodeProperties } from 'n8n-workflow';

import { quoteRequestIdField } from './shared';

export const quoteRequestGetDescription: INodeProperties[] = [quoteRequestIdField('get')];
