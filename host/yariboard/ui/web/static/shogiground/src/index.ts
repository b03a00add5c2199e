import { Shogiground } from './shogiground.js';

export default Shogiground;
