// The simulated cluster: databases, tables, roles and applications, and the
// statement templates sessions run. See model.h.
#include "model.h"

namespace gen_pglog {

const std::vector<Db>& Dbs() {
  static const std::vector<Db> dbs = {
      {"shop", 16384,
       {{"inventory", 16402, "sku", "qty = qty - 1", "reserve_item", 2000, 14},
        {"orders", 16411, "id", "status = 'paid', updated_at = now()", "pay_order", 2000000, 40000},
        {"customers", 16420, "id", "last_seen = now()", "touch_customer", 300000, 6000},
        {"carts", 16433, "id", "updated_at = now()", "touch_cart", 20000, 250}},
       {"shop_app", "shop_app", "shop_app", "checkout"},
       {"shop-api", "shop-api", "checkout-worker", "", "PostgreSQL JDBC Driver"}},
      {"billing", 16385,
       {{"accounts", 24611, "id", "balance = balance - 10.00", "debit", 300, 3},
        {"invoices", 24620, "id", "state = 'sent'", "send_invoice", 100000, 2500},
        {"ledger_totals", 24633, "account_id", "total = total + 1", "bump_total", 300, 2}},
       {"billing", "billing", "postgres"},
       {"billing-cron", "psql", "PostgreSQL JDBC Driver", ""}},
  };
  return dbs;
}

const std::vector<Tpl>& Templates() {
  static const std::vector<Tpl> t = {
      {"SELECT", "shop", "SELECT id, customer_id, status, total FROM orders WHERE id = \x01;",
       "SELECT id, customer_id, status, total FROM orders WHERE id = $1", 1},
      {"SELECT", "shop", "SELECT count(*) FROM order_items WHERE order_id = \x01;",
       "SELECT count(*) FROM order_items WHERE order_id = $1", 1},
      {"UPDATE", "shop", "UPDATE orders SET status = 'shipped', updated_at = now() WHERE id = \x01;",
       "UPDATE orders SET status = $1, updated_at = now() WHERE id = $2", 2},
      {"INSERT", "shop", "INSERT INTO order_items (order_id, sku, qty, price) VALUES (\x01, \x01, \x02, \x03);",
       "INSERT INTO order_items (order_id, sku, qty, price) VALUES ($1, $2, $3, $4)", 4},
      {"UPDATE", "shop", "UPDATE inventory SET qty = qty - \x02 WHERE sku = \x01;",
       "UPDATE inventory SET qty = qty - $1 WHERE sku = $2", 2},
      {"SELECT", "shop", "SELECT c.id, c.email, c.created_at\n  FROM customers c\n WHERE c.id = \x01;", nullptr, 0},
      {"SELECT", "shop",
       "SELECT o.id,\n       o.total,\n       c.email\n  FROM orders o\n  JOIN customers c ON c.id = o.customer_id\n"
       " WHERE o.created_at >= now() - interval '\x05 days'\n ORDER BY o.created_at DESC\n LIMIT 50;",
       nullptr, 0},
      {"SELECT", "shop",
       "WITH recent AS (\n    SELECT customer_id, sum(total) AS spent\n      FROM orders\n"
       "     WHERE created_at > now() - interval '30 days'\n     GROUP BY customer_id\n)\n"
       "SELECT c.email, r.spent\n  FROM recent r\n  JOIN customers c USING (customer_id)\n ORDER BY r.spent DESC\n LIMIT \x02;",
       nullptr, 0},
      {"DELETE", "shop", "DELETE FROM carts WHERE updated_at < now() - interval '\x05 hours';", nullptr, 0},
      {"INSERT", "shop", "INSERT INTO carts (customer_id, created_at) VALUES (\x01, now()) RETURNING id;",
       "INSERT INTO carts (customer_id, created_at) VALUES ($1, now()) RETURNING id", 1},
      {"SELECT", "shop", "SELECT sku, qty FROM inventory WHERE sku = ANY('{\x01,\x01,\x01}'::int[]);", nullptr, 0},
      {"SELECT", "billing", "SELECT * FROM ledger WHERE account_id = \x01 ORDER BY posted_at DESC LIMIT 20;",
       "SELECT * FROM ledger WHERE account_id = $1 ORDER BY posted_at DESC LIMIT 20", 1},
      {"INSERT", "billing", "INSERT INTO ledger (account_id, amount, memo) VALUES (\x01, \x03, '\x04');",
       "INSERT INTO ledger (account_id, amount, memo) VALUES ($1, $2, $3)", 3},
      {"UPDATE", "billing", "UPDATE invoices SET state = 'paid', paid_at = now() WHERE id = \x01;",
       "UPDATE invoices SET state = $1, paid_at = now() WHERE id = $2", 2},
      {"SELECT", "billing",
       "SELECT a.id,\n       a.balance,\n       sum(l.amount) AS pending\n  FROM accounts a\n"
       "  LEFT JOIN ledger l ON l.account_id = a.id AND l.posted_at IS NULL\n WHERE a.id = \x01\n GROUP BY a.id, a.balance;",
       nullptr, 0},
      // An ORM's quoted identifiers (Rails, Django): escaped quotes in jsonlog and csvlog.
      {"SELECT", "shop",
       "SELECT \"customers\".\"id\", \"customers\".\"email\", \"customers\".\"created_at\" FROM \"customers\""
       " WHERE \"customers\".\"id\" = \x01 LIMIT 1;",
       "SELECT \"customers\".\"id\", \"customers\".\"email\", \"customers\".\"created_at\" FROM \"customers\""
       " WHERE \"customers\".\"id\" = $1 LIMIT $2", 2},
      // Application SQL indented with tabs (a heredoc in the code): \n\t in jsonlog.
      {"UPDATE", "billing",
       "UPDATE \"invoices\"\n\tSET \"state\" = 'overdue',\n\t\t\"reminded_at\" = now()\n\tWHERE \"due_at\" < now()"
       "\n\t  AND \"account_id\" = \x01;",
       nullptr, 0},
      {"SELECT", "", "SELECT 1;", "SELECT 1", 0},
      {"SELECT", "", "SELECT now();", nullptr, 0},
      {"SET", "", "SET statement_timeout = '\x05s';", nullptr, 0},
      {"SHOW", "", "SHOW transaction_isolation;", nullptr, 0},
  };
  return t;
}

const std::vector<const char*>& Words() {
  static const std::vector<const char*> w = {"refund", "monthly fee", "adjustment", "promo", "chargeback",
                                             "correction", "late fee", "transfer", "bonus", "rounding"};
  return w;
}

}  // namespace gen_pglog
