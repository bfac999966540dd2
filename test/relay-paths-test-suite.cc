/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RelayPaths alone, over fake cells that record their relays and every call: a session's path
// follows the UE hop by hop, a cell off the path keeps no relay, and growing the path acts on
// the cell the UE leaves only (the node where the handover is heard).

#include "fake-cell-port.h"
#include "test-durations.h"

#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"
#include "ns3/test.h"

#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// A cell on a line of neighbours, which records its relays and which cells were called.
class RelayCell : public edgellm::FakeCellPort
{
  public:
    /// \param id the cell's id \param calls where each call on any cell is recorded
    RelayCell(uint16_t id, std::vector<uint16_t>& calls)
        : FakeCellPort(id, MilliSeconds(10)),
          m_calls(calls)
    {
    }

    bool HasRelayPeer(uint16_t cellId) const override
    {
        m_calls.push_back(GetCellId());
        return cellId + 1 == GetCellId() || cellId == GetCellId() + 1; // neighbours only
    }

    void StartRelay(uint64_t imsi, uint16_t nextCellId) override
    {
        m_calls.push_back(GetCellId());
        m_next[imsi] = nextCellId;
    }

    void StopRelay(uint64_t imsi) override
    {
        m_calls.push_back(GetCellId());
        m_next.erase(imsi);
    }

    /// \param imsi a session \return where this cell relays it, 0 if it does not
    uint16_t Next(uint64_t imsi) const
    {
        auto it = m_next.find(imsi);
        return it == m_next.end() ? 0 : it->second;
    }

  private:
    std::vector<uint16_t>& m_calls;      //!< shared by the cells
    std::map<uint64_t, uint16_t> m_next; //!< relays by IMSI
};

class RelayPathsTestCase : public TestCase
{
  public:
    RelayPathsTestCase()
        : TestCase("RelayPaths: a path grows at the cell the UE leaves, a cut stops the cells "
                   "past the UE's, and a cell off the path keeps no relay")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t imsi = 7;
        std::vector<uint16_t> calls;
        std::map<uint16_t, Ptr<RelayCell>> cells;
        for (uint16_t c = 1; c <= 4; ++c)
        {
            cells[c] = Create<RelayCell>(c, calls);
        }
        RelayPaths paths([&cells](uint16_t c) { return Ptr<CellPort>(cells.at(c)); });
        // Every relay, by hand, after each step: cell -> the cell it relays to (0: none).
        const auto relays = [&cells, imsi]() {
            std::vector<uint16_t> r;
            for (const auto& [c, cell] : cells)
            {
                r.push_back(cell->Next(imsi));
            }
            return r;
        };
        const auto step = [&](uint16_t to,
                              bool routed,
                              std::vector<uint16_t> path,
                              std::vector<uint16_t> relay,
                              std::vector<uint16_t> touched,
                              const std::string& what) {
            calls.clear();
            NS_TEST_EXPECT_MSG_EQ(paths.RouteTo(imsi, to), routed, what << ": routed");
            NS_TEST_EXPECT_MSG_EQ((paths.Get(imsi) == path), true, what << ": the path");
            NS_TEST_EXPECT_MSG_EQ((relays() == relay), true, what << ": the relays");
            NS_TEST_EXPECT_MSG_EQ((calls == touched), true, what << ": the cells called");
        };
        paths.Reset(imsi, 1);
        // Out along the line: each hop asks and sets the cell the UE leaves, and no other.
        step(2, true, {1, 2}, {2, 0, 0, 0}, {1, 1}, "1 to 2");
        step(3, true, {1, 2, 3}, {2, 3, 0, 0}, {2, 2}, "2 to 3");
        step(4, true, {1, 2, 3, 4}, {2, 3, 4, 0}, {3, 3}, "3 to 4");
        // Back to cell 2: 3 stops (no packet reaches it any more); 4, where the UE was,
        // relays to none; 2, where the UE is now, stops relaying.
        step(2, true, {1, 2}, {2, 0, 0, 0}, {3, 2}, "4 back to 2");
        // Out again: cell 3 holds no relay from its time on the old path, and is not called.
        step(3, true, {1, 2, 3}, {2, 3, 0, 0}, {2, 2}, "2 to 3 again");
        // No link from 3 to 1: refused, nothing changes.
        step(1, true, {1}, {0, 0, 0, 0}, {2, 1}, "3 back to 1");
        step(3, false, {1}, {0, 0, 0, 0}, {1}, "1 to 3, no link");
        // Every relay past the holder stops; the holder's ends with its export.
        step(2, true, {1, 2}, {2, 0, 0, 0}, {1, 1}, "1 to 2 once more");
        calls.clear();
        paths.StopRelays(imsi);
        NS_TEST_EXPECT_MSG_EQ(cells[1]->Next(imsi), 2, "the holder keeps its relay");
        NS_TEST_EXPECT_MSG_EQ((calls == std::vector<uint16_t>{2}), true, "only the others called");
    }
};

class RelayPathsTestSuite : public TestSuite
{
  public:
    RelayPathsTestSuite()
        : TestSuite("edge-llm-relay-paths", TestSuite::Type::UNIT)
    {
        AddTestCase(new RelayPathsTestCase, edgellm::TEST_QUICK);
    }
};

/// The suite's one instance
RelayPathsTestSuite g_relayPathsTestSuite;

} // namespace
