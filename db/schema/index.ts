export * from './organizations';
export * from './documents';
export * from './analysis';
export * from './audit';
export * from './gateway';
export * from './ledger';
export * from './master-data';
