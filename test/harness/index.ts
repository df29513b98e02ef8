export * from './engine';
export * from './logs';
