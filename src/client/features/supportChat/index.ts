export * from './supportChat.js';
