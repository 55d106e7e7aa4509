/**
 * The blocks of a screen definition (text, banner, links, details, cards, table, list, itemList, select, form, panel,
 * fragment, chart…), each shown only when its condition holds for the screen context. Components dispatch; actions run in
 * sagas (actions.ts). The registry: one view per block type (a type of the Block union without a view here is a type
 * error), each in a file of its own. A view that shows other blocks gets `renderBlocks` from here: the views never
 * import this file (an import cycle, which the module-graph test forbids).
 */
import type { ComponentType, ReactElement } from 'react';
import type { Block, ScreenDefinition } from '../../../../common/screens.js';
import { matches } from '../conditions.js';
import type { ScreenContext } from '../values.js';
import { BannerView } from './BannerView.js';
import { CardsView } from './CardsView.js';
import { ChartView } from './ChartView.js';
import { ColumnsView } from './ColumnsView.js';
import { DateView } from './DateView.js';
import { DetailsView } from './DetailsView.js';
import { DividerView } from './DividerView.js';
import { FormView } from './FormView.js';
import { FragmentView } from './FragmentView.js';
import { ImageView } from './ImageView.js';
import { ItemListView } from './ItemListView.js';
import { LinkListView } from './LinkListView.js';
import { LinksView } from './LinksView.js';
import { ListView } from './ListView.js';
import { PanelView } from './PanelView.js';
import { SelectView } from './SelectView.js';
import type { BlockProps, RenderBlocks } from './shared.js';
import { TableView } from './TableView.js';
import { TextView } from './TextView.js';
import { UploadView } from './UploadView.js';

/** The view of each block type. */
const BLOCK_VIEWS: { [Type in Block['type']]: ComponentType<BlockProps<Extract<Block, { type: Type }>>> } = {
  itemList: ItemListView,
  select: SelectView,
  date: DateView,
  fragment: FragmentView,
  upload: UploadView,
  divider: DividerView,
  text: TextView,
  banner: BannerView,
  links: LinksView,
  details: DetailsView,
  cards: CardsView,
  table: TableView,
  list: ListView,
  form: FormView,
  panel: PanelView,
  image: ImageView,
  columns: ColumnsView,
  linkList: LinkListView,
  chart: ChartView,
};

/** The block renderer a view that shows other blocks of `screen` is given. */
export const renderBlocks =
  (screen: ScreenDefinition): RenderBlocks =>
  (blocks, shown) => <Blocks blocks={blocks} screen={screen} context={shown} />;

function BlockView({ block, screen, context }: { block: Block; screen: ScreenDefinition; context: ScreenContext }): ReactElement {
  const View = BLOCK_VIEWS[block.type] as ComponentType<BlockProps<Block>>;
  return <View block={block} screen={screen} context={context} renderBlocks={renderBlocks(screen)} />;
}

export function Blocks({ blocks, screen, context }: { blocks: Block[]; screen: ScreenDefinition; context: ScreenContext }): ReactElement {
  return (
    <>
      {blocks
        .filter((block) => matches(block.when, context))
        .map((block, index) => (
          <BlockView key={index} block={block} screen={screen} context={context} />
        ))}
    </>
  );
}
