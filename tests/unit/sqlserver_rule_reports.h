// Small SQL Server deadlock reports for the MS rule tests, made by hand from
// the real ones in samples/sqlserver/ (same elements and attributes, other
// tables, modes and statements) for the cases no public report shows: range
// locks, parallelism, escalation, application locks, and the variants that
// must keep a rule silent. Each is one Extended Events xml_deadlock_report.
#pragma once

#include <string>

namespace lockgraph::ms_reports {

/// A <frame>: procedure, line, statement.
inline std::string Frame(const std::string& proc, int line, const std::string& sql) {
  return "<frame procname=\"" + proc + "\" line=\"" + std::to_string(line) +
         "\" stmtstart=\"80\" stmtend=\"200\" sqlhandle=\"0x03000700\">\n" + sql + "    </frame>\n";
}

/// A <process> as the real reports write it (fewer attributes).
inline std::string Process(const std::string& id, int spid, int ecid, const std::string& mode,
                           const std::string& waitresource, const std::string& isolation,
                           const std::string& frames, const std::string& inputbuf) {
  return "<process id=\"" + id + "\" taskpriority=\"0\" logused=\"1000\" waitresource=\"" +
         waitresource + "\" waittime=\"2100\" transactionname=\"user_transaction\" lockMode=\"" +
         mode + "\" spid=\"" + std::to_string(spid) + "\" ecid=\"" + std::to_string(ecid) +
         "\" clientapp=\"ShopApi\" hostname=\"web1\" loginname=\"shop\" isolationlevel=\"" +
         isolation + "\" currentdb=\"7\">\n<executionStack>\n" + frames +
         "</executionStack>\n<inputbuf>\n" + inputbuf + "\n</inputbuf>\n</process>\n";
}

/// A resource element with one owner and one waiter.
inline std::string Resource(const std::string& element, const std::string& attributes,
                            const std::string& owner, const std::string& owner_mode,
                            const std::string& waiter, const std::string& waiter_mode,
                            const std::string& request = "wait") {
  std::string om = owner_mode.empty() ? "" : " mode=\"" + owner_mode + "\"";
  std::string wm = waiter_mode.empty() ? "" : " mode=\"" + waiter_mode + "\" requestType=\"" + request + "\"";
  return "<" + element + " " + attributes + ">\n<owner-list><owner id=\"" + owner + "\"" + om +
         "/></owner-list>\n<waiter-list><waiter id=\"" + waiter + "\"" + wm +
         "/></waiter-list>\n</" + element + ">\n";
}

/// The Extended Events wrapper around one deadlock graph.
inline std::string Event(const std::string& victim, const std::string& processes,
                         const std::string& resources) {
  return "<event name=\"xml_deadlock_report\" package=\"sqlserver\" timestamp=\"2026-12-02T10:00:00.000Z\">\n"
         "<data name=\"xml_report\"><type name=\"xml\" package=\"package0\"/><value>\n<deadlock>\n"
         "<victim-list>" + (victim.empty() ? "" : "<victimProcess id=\"" + victim + "\"/>") +
         "</victim-list>\n<process-list>\n" + processes + "</process-list>\n<resource-list>\n" +
         resources + "</resource-list>\n</deadlock>\n</value></data>\n</event>\n";
}

inline constexpr const char* kKeyA = "KEY: 7:72057594045005824 (8194443284a0)";
inline constexpr const char* kKeyB = "KEY: 7:72057594045136896 (61a06abd401c)";

inline std::string KeyLock(const std::string& index, const std::string& hobt, const std::string& object = "Shop.dbo.Orders") {
  return "hobtid=\"" + hobt + "\" dbid=\"7\" objectname=\"" + object + "\" indexname=\"" + index +
         "\" id=\"lock" + hobt.substr(hobt.size() - 4) + "\" mode=\"X\" associatedObjectId=\"" + hobt + "\"";
}

/// MS003: two serializable upserts. Each checked that customer 42 has no
/// order (RangeS-S on the gap in IX_Orders_Customer) and now inserts into
/// the gap the other one holds (RangeI-N).
inline std::string RangeLocks(const std::string& held = "RangeS-S", const std::string& wanted = "RangeI-N",
                              const std::string& isolation = "serializable (4)") {
  std::string frames = Frame("Shop.dbo.usp_AddOrder", 9,
                             "INSERT INTO dbo.Orders (CustomerId, Total) VALUES (@CustomerId, @Total)");
  std::string buf = "Proc [Database Id = 7 Object Id = 1237579447]";
  return Event("process1a",
               Process("process1a", 61, 0, wanted, kKeyA, isolation, frames, buf) +
                   Process("process2b", 64, 0, wanted, kKeyA, isolation, frames, buf),
               Resource("keylock", KeyLock("IX_Orders_Customer", "72057594045005824"), "process2b", held,
                        "process1a", wanted) +
                   Resource("keylock", KeyLock("IX_Orders_Customer", "72057594045005824"), "process1a", held,
                            "process2b", wanted));
}

/// MS005: the threads of one query (spid 71: ecid 0, 3 and 5) wait for each
/// other's exchange ports; the report names no victim.
inline std::string Parallel() {
  std::string frames = Frame("adhoc", 1, "SELECT o.CustomerId, SUM(l.Amount) FROM dbo.Orders o JOIN dbo.Lines l ON l.OrderId = o.Id GROUP BY o.CustomerId");
  std::string buf = "SELECT o.CustomerId, SUM(l.Amount) FROM dbo.Orders o JOIN dbo.Lines l ON l.OrderId = o.Id GROUP BY o.CustomerId";
  auto port = [](int n, const char* type, const char* owner, const char* waiter) {
    return "<exchangeEvent id=\"Pipe" + std::to_string(n) + "a1\" WaitType=\"" + type + "\" nodeId=\"" +
           std::to_string(n) + "\">\n<owner-list><owner id=\"" + owner +
           "\"/></owner-list>\n<waiter-list><waiter id=\"" + waiter + "\"/></waiter-list>\n</exchangeEvent>\n";
  };
  return Event("",
               Process("process71a", 71, 0, "", "", "read committed (2)", frames, buf) +
                   Process("process71b", 71, 3, "", "", "read committed (2)", "", "") +
                   Process("process71c", 71, 5, "", "", "read committed (2)", "", ""),
               port(2, "e_waitPipeGetRow", "process71b", "process71a") +
                   port(4, "e_waitPipeNewRow", "process71c", "process71b") +
                   port(6, "e_waitPortOpen", "process71a", "process71c"));
}

/// MS006: the nightly job (spid 52) holds X on the whole Orders table (its
/// row locks were escalated) and waits for a Customers row; the API (spid
/// 60) holds that row and waits for IX on Orders. `hint` is added to the
/// job's UPDATE (" WITH (TABLOCKX)" makes the table lock asked for).
inline std::string Escalation(const std::string& hint = "", const std::string& table_mode = "X") {
  // "&lt;": the statement is XML text.
  std::string job = "UPDATE dbo.Orders" + hint + " SET Status = 9 WHERE CreatedAt &lt; @cutoff";
  return Event("process60",
               Process("process60", 60, 0, "IX", "OBJECT: 7:1237579447:0 ", "read committed (2)",
                       Frame("Shop.dbo.usp_PlaceOrder", 14, "UPDATE dbo.Orders SET Status = 1 WHERE Id = @OrderId"),
                       "Proc [Database Id = 7 Object Id = 1301579675]") +
                   Process("process52", 52, 0, "U", kKeyB, "read committed (2)",
                           Frame("adhoc", 3, "UPDATE dbo.Customers SET LastOrderAt = GETDATE() WHERE Id IN (SELECT CustomerId FROM dbo.Orders WHERE Status = 9)"),
                           "BEGIN TRAN\n" + job + "\nUPDATE dbo.Customers SET LastOrderAt = GETDATE() WHERE Id IN (SELECT CustomerId FROM dbo.Orders WHERE Status = 9)"),
               Resource("objectlock", "lockPartition=\"0\" objid=\"1237579447\" subresource=\"FULL\" dbid=\"7\" objectname=\"Shop.dbo.Orders\" id=\"lock1f00\" mode=\"" + table_mode + "\" associatedObjectId=\"1237579447\"",
                        "process52", table_mode, "process60", "IX") +
                   Resource("keylock", KeyLock("PK_Customers", "72057594045136896", "Shop.dbo.Customers"), "process60", "X",
                            "process52", "U"));
}

/// MS007: two workers take application locks on orders 17 and 18 in
/// opposite orders, with @LockOwner = `owner`.
inline std::string AppLocks(const std::string& owner = "Session") {
  auto buf = [&](int first, int second) {
    return "EXEC sp_getapplock @Resource = 'order-" + std::to_string(first) +
           "', @LockMode = 'Exclusive', @LockOwner = '" + owner + "'\nEXEC sp_getapplock @Resource = 'order-" +
           std::to_string(second) + "', @LockMode = 'Exclusive', @LockOwner = '" + owner + "'";
  };
  auto app = [](const char* name, const char* hash) {
    return std::string("hash=\"") + name + ":" + hash + "\" databasePrincipalId=\"0\" dbid=\"7\" id=\"lock" + hash + "\" mode=\"X\"";
  };
  return Event("process81",
               Process("process81", 81, 0, "X", "APP: 7:0:[order-18]:(5f1a7b3c)", "read committed (2)",
                       Frame("adhoc", 2, "EXEC sp_getapplock @Resource = 'order-18', @LockMode = 'Exclusive', @LockOwner = '" + owner + "'"), buf(17, 18)) +
                   Process("process82", 82, 0, "X", "APP: 7:0:[order-17]:(8e0b5c0b)", "read committed (2)",
                           Frame("adhoc", 2, "EXEC sp_getapplock @Resource = 'order-17', @LockMode = 'Exclusive', @LockOwner = '" + owner + "'"), buf(18, 17)),
               Resource("applicationlock", app("order-18", "5f1a7b3c"), "process82", "X", "process81", "X") +
                   Resource("applicationlock", app("order-17", "8e0b5c0b"), "process81", "X", "process82", "X"));
}

/// MS002: both read order 5 with HOLDLOCK (S kept) and then update it: each
/// converts S to X on the same key. `request` "wait" makes it a plain wait.
inline std::string Conversion(const std::string& request = "convert") {
  std::string frames = Frame("Shop.dbo.usp_PayOrder", 12, "UPDATE dbo.Orders SET Paid = 1 WHERE Id = @OrderId");
  std::string buf = "Proc [Database Id = 7 Object Id = 1333579789]";
  std::string res = "<keylock " + KeyLock("PK_Orders", "72057594045005824") + ">\n<owner-list>"
                    "<owner id=\"process91\" mode=\"S\"/><owner id=\"process92\" mode=\"S\"/>"
                    "</owner-list>\n<waiter-list><waiter id=\"process91\" mode=\"X\" requestType=\"" + request +
                    "\"/><waiter id=\"process92\" mode=\"X\" requestType=\"" + request + "\"/></waiter-list>\n</keylock>\n";
  return Event("process91",
               Process("process91", 91, 0, "X", kKeyA, "repeatable read (3)", frames, buf) +
                   Process("process92", 92, 0, "X", kKeyA, "repeatable read (3)", frames, buf),
               res);
}

/// MS004: a report SELECT (spid 70, at `isolation`) holds S on a Customers
/// row and waits for S on an Orders row that an UPDATE (spid 75) holds X on;
/// the UPDATE waits for X on the Customers row.
inline std::string ReaderWriter(const std::string& isolation = "read committed (2)") {
  return Event("process70",
               Process("process70", 70, 0, "S", kKeyA, isolation,
                       Frame("Shop.dbo.usp_CustomerReport", 5, "SELECT c.Name, o.Total FROM dbo.Customers c JOIN dbo.Orders o ON o.CustomerId = c.Id WHERE c.Id = @Id"),
                       "Proc [Database Id = 7 Object Id = 1365579903]") +
                   Process("process75", 75, 0, "X", kKeyB, "read committed (2)",
                           Frame("Shop.dbo.usp_Checkout", 21, "UPDATE dbo.Customers SET Balance = Balance - @Total WHERE Id = @CustomerId"),
                           "Proc [Database Id = 7 Object Id = 1397580017]"),
               Resource("keylock", KeyLock("PK_Orders", "72057594045005824"), "process75", "X", "process70", "S") +
                   Resource("keylock", KeyLock("PK_Customers", "72057594045136896", "Shop.dbo.Customers"), "process70", "S",
                            "process75", "X"));
}

}  // namespace lockgraph::ms_reports
