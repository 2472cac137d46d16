export * from './organizations';
export * from './documents';
export * from './analysis';
export * from './audit';
