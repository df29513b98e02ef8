export * from './engine';
export * from './logs';
export * from './tool';
