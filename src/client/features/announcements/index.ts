export * from './announcements.js';
