import { Schema, type Connection, type Model } from 'mongoose';
import type { RuleView } from '../domain/route-planner';

export interface RoutingRuleDoc extends RuleView {
  _id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  name: string;
  /**
   * The sequence number of the last reorder that wrote this rule's priority: a reorder writes only
   * rules whose number is lower than its own, so two concurrent reorders never leave a mix of both.
   */
  order_seq?: number;
  created_at: Date;
  updated_at: Date;
}

/**
 * The per merchant-mode counters (collection `routing_rule_orders`): `seq` numbers reorders;
 * `rule_count` holds the places taken under the rule limit (a guarded `$inc` reserves one before a
 * rule is inserted). Absent on counters written before it: the first reservation counts the rules.
 */
export interface RuleOrderDoc {
  _id: string;
  seq: number;
  rule_count?: number;
}

const conditionsSchema = new Schema<RuleView['conditions']>(
  {
    methods: { type: [String], default: [] },
    amount_min: { type: Number, default: 0 },
    amount_max: { type: Number, default: 0 },
    metadata: { type: [new Schema({ key: { type: String, required: true }, value: { type: String, required: true } }, { _id: false })], default: [] },
    customer_has: { type: [String], default: [] },
  },
  { _id: false },
);

const targetSchema = new Schema<RuleView['target']>(
  {
    type: { type: String, required: true },
    accounts: { type: [String], default: [] },
    weights: {
      type: [new Schema({ account_id: { type: String, required: true }, percentage: { type: Number, required: true } }, { _id: false })],
      default: [],
    },
    fallback: { type: Boolean, default: true },
  },
  { _id: false },
);

const schema = new Schema<RoutingRuleDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, required: true },
    id: { type: String, required: true },
    name: { type: String, default: '' },
    priority: { type: Number, required: true },
    enabled: { type: Boolean, required: true },
    conditions: { type: conditionsSchema, required: true },
    target: { type: targetSchema, required: true },
    order_seq: { type: Number, default: 0 },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);
schema.index({ merchant_id: 1, mode: 1, priority: 1 });

export type RoutingRuleModel = Model<RoutingRuleDoc>;
export type RuleOrderModel = Model<RuleOrderDoc>;

const orderSchema = new Schema<RuleOrderDoc>(
  { _id: { type: String, required: true }, seq: { type: Number, default: 0 }, rule_count: { type: Number } },
  { versionKey: false },
);

export function registerRoutingRuleModel(connection: Connection): RoutingRuleModel {
  return connection.model<RoutingRuleDoc>('RoutingRule', schema, 'routing_rules');
}

export function registerRuleOrderModel(connection: Connection): RuleOrderModel {
  return connection.model<RuleOrderDoc>('RuleOrder', orderSchema, 'routing_rule_orders');
}
