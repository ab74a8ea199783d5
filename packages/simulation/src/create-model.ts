import type { DeviceKind } from './device-kind';
import { BrewTank } from './brew-tank';
import { GenericController } from './generic-controller';
import type { DeviceModel, PlantModelOptions } from './plant-model';
import { RetailShelf } from './retail-shelf';
import { Sprayer } from './sprayer';
import { WaterPlant } from './water-plant';

/** The plant model of a device kind. */
export function createModel(kind: DeviceKind, options: PlantModelOptions): DeviceModel {
  switch (kind) {
    case 'generic':
      return new GenericController(options);
    case 'brewTank':
      return new BrewTank(options);
    case 'sprayer':
      return new Sprayer(options);
    case 'waterPlant':
      return new WaterPlant(options);
    case 'retailShelf':
      return new RetailShelf(options);
  }
}
