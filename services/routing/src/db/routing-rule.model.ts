import { Schema, type Connection, type Model } from 'mongoose';
import type { RuleView } from '../domain/route-planner';

export interface RoutingRuleDoc extends RuleView {
  _id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  name: string;
  created_at: Date;
  updated_at: Date;
}

const schema = new Schema<RoutingRuleDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, required: true },
    id: { type: String, required: true },
    name: { type: String, default: '' },
    priority: { type: Number, required: true },
    enabled: { type: Boolean, required: true },
    conditions: { type: Schema.Types.Mixed, required: true },
    target: { type: Schema.Types.Mixed, required: true },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);
schema.index({ merchant_id: 1, mode: 1, priority: 1 });

export type RoutingRuleModel = Model<RoutingRuleDoc>;

export function registerRoutingRuleModel(connection: Connection): RoutingRuleModel {
  return connection.model<RoutingRuleDoc>('RoutingRule', schema, 'routing_rules');
}
