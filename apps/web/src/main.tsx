import { sendFirstCalls } from './app/first-calls';
import './components/ui/base.css';
import './components/ui/ui.css';

// The entry only sends the calls the first screen waits for, then loads the console: its module graph
// (React, the router, the queries, the API's schemas) is fetched and run while they are answered
// (issue 41 item 5). The first calls' code imports none of it.
sendFirstCalls();
void import('./app/boot').then(({ boot }) => boot());
