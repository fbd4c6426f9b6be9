import { render } from 'preact';
import 'uplot/dist/uPlot.min.css';
import './style.css';
import { App } from './app.js';

render(<App />, document.getElementById('app')!);
