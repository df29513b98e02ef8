import { logToFile } from './logs';

logToFile();
