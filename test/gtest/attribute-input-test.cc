/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Every attribute the module registers against test/invalid-inputs.csv, the table of what each
// allows: each row's refused values must be refused with the table's words, its accepted values
// accepted, and every attribute must have a row. A value is given as the command line gives it,
// a text through Config::SetDefaultFailSafe, in a child process, since a text that is no value
// of the attribute's type stops the run.

#include "ns3/core-module.h"
#include "ns3/llm-engine.h"
#include "ns3/ran-stack.h"

#include <dlfcn.h>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

#ifndef EDGE_LLM_INVALID_INPUTS
#error "EDGE_LLM_INVALID_INPUTS (the path of test/invalid-inputs.csv) is defined by the build"
#endif

using namespace ns3;

namespace
{

const char* const TABLE = EDGE_LLM_INVALID_INPUTS;
const char* const GROUP = "EdgeLlm";

/// One row of the table.
struct Row
{
    int line;                          //!< line in the file, from 1
    std::string attribute;             //!< "ns3::Class::Attribute"
    std::string allowed;               //!< the allowed values, in the refusal's words
    std::vector<std::string> refused;  //!< values to refuse; empty for "-"
    std::vector<std::string> accepted; //!< values to accept; empty for "-"
};

/// The fields of one CSV record: commas separate, double quotes quote, "" is a quote.
std::vector<std::string>
SplitCsv(const std::string& line)
{
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i)
    {
        const char c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"')
        {
            fields.back() += '"';
            ++i;
        }
        else if (c == '"')
        {
            quoted = !quoted;
        }
        else if (c == ',' && !quoted)
        {
            fields.emplace_back();
        }
        else
        {
            fields.back() += c;
        }
    }
    return fields;
}

/// A cell's values: separated by ";", "(empty)" for the empty text, none for "-".
std::vector<std::string>
Values(const std::string& cell)
{
    std::vector<std::string> values;
    if (cell == "-")
    {
        return values;
    }
    std::istringstream in(cell);
    std::string value;
    while (std::getline(in, value, ';'))
    {
        const auto first = value.find_first_not_of(' ');
        value = first == std::string::npos
                    ? ""
                    : value.substr(first, value.find_last_not_of(' ') + 1 - first);
        values.push_back(value == "(empty)" ? "" : value);
    }
    return values;
}

std::vector<Row>
ReadTable()
{
    std::ifstream in(TABLE);
    EXPECT_TRUE(in.good()) << TABLE << " cannot be read";
    std::vector<Row> rows;
    std::string line;
    for (int n = 1; std::getline(in, line); ++n)
    {
        const std::vector<std::string> f = SplitCsv(line);
        if (n == 1)
        {
            EXPECT_EQ(line, "attribute,allowed,refused,accepted") << TABLE << ":1";
            continue;
        }
        if (f.size() != 4)
        {
            ADD_FAILURE() << TABLE << ":" << n << ": " << f.size()
                          << " fields; a row has 4: attribute,allowed,refused,accepted";
            continue;
        }
        rows.push_back({n, f[0], f[1], Values(f[2]), Values(f[3])});
    }
    return rows;
}

/// What a child that set a default said and how it ended.
struct Outcome
{
    bool accepted;      //!< it exited 0: SetDefaultFailSafe returned true
    std::string stderr; //!< what it printed on stderr
};

/// Give an attribute a default from a text in a child process, as the command line does.
Outcome
SetDefaultInChild(const std::string& attribute, const std::string& text)
{
    int pipeFds[2];
    if (pipe(pipeFds) != 0)
    {
        ADD_FAILURE() << "pipe failed";
        return {false, ""};
    }
    std::cout.flush();
    std::cerr.flush();
    const pid_t pid = fork();
    if (pid == 0)
    {
        dup2(pipeFds[1], STDERR_FILENO);
        close(pipeFds[0]);
        close(pipeFds[1]);
        const bool ok = Config::SetDefaultFailSafe(attribute, StringValue(text));
        std::cerr.flush();
        _exit(ok ? 0 : 3);
    }
    close(pipeFds[1]);
    std::string err;
    char buffer[4096];
    ssize_t n;
    while ((n = read(pipeFds[0], buffer, sizeof buffer)) > 0)
    {
        err.append(buffer, n);
    }
    close(pipeFds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return {WIFEXITED(status) && WEXITSTATUS(status) == 0, err};
}

/// The refusal line of an attribute in a child's stderr, or "" if it printed none.
std::string
RefusalLine(const std::string& stderrText, const std::string& attribute)
{
    std::istringstream in(stderrText);
    std::string line;
    while (std::getline(in, line))
    {
        if (line.rfind(attribute + " = ", 0) == 0)
        {
            return line;
        }
    }
    return "";
}

/// Every attribute declared by a TypeId of the module's group, with its TypeId.
std::map<std::string, TypeId>
ModuleAttributes()
{
    std::map<std::string, TypeId> found;
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        const TypeId tid = TypeId::GetRegistered(i);
        if (tid.GetGroupName() != GROUP)
        {
            continue;
        }
        for (std::size_t j = 0; j < tid.GetAttributeN(); ++j)
        {
            found[tid.GetAttributeFullName(j)] = tid;
        }
    }
    return found;
}

/// TypeIds registered only in builds with an optional part: NrRanStack needs 5G-LENA's nr.
bool
MissingFromThisBuild(const std::string& attribute)
{
    return attribute.rfind("ns3::NrRanStack::", 0) == 0 && !IsRanStackAvailable("nr");
}

/// The file of the shared object that holds an address, or "" if none does.
std::string
ObjectFileOf(const void* address)
{
    Dl_info info;
    return dladdr(address, &info) != 0 && info.dli_fname ? info.dli_fname : "";
}

/// The shared object whose code reads and writes an attribute: where its accessor's class is.
std::string
AccessorFile(const TypeId::AttributeInformation& info)
{
    // The first word of a polymorphic object points into its class's virtual table, which
    // lies in the object file that instantiated the accessor: the one of the AddAttribute.
    return ObjectFileOf(*reinterpret_cast<void* const*>(PeekPointer(info.accessor)));
}

TEST(AttributeInputTest, EveryAttributeOfTheModuleHasARow)
{
    const std::vector<Row> rows = ReadTable();
    const std::map<std::string, TypeId> attributes = ModuleAttributes();
    ASSERT_GT(attributes.size(), 100u) << "the module's TypeIds were not found by their group";
    std::map<std::string, int> seen;
    for (const Row& row : rows)
    {
        const auto [first, fresh] = seen.emplace(row.attribute, row.line);
        EXPECT_TRUE(fresh) << TABLE << ":" << row.line << ": " << row.attribute
                           << " has a row already, at line " << first->second;
        if (attributes.count(row.attribute) == 0 && !MissingFromThisBuild(row.attribute))
        {
            ADD_FAILURE() << TABLE << ":" << row.line << ": " << row.attribute
                          << " is no attribute of a TypeId of the group " << GROUP
                          << "; name it by the TypeId that declares it, or remove the row";
        }
    }
    for (const auto& [name, tid] : attributes)
    {
        if (seen.count(name) != 0)
        {
            continue;
        }
        TypeId::AttributeInformation info;
        tid.LookupAttributeByName(name.substr(name.rfind("::") + 2), &info);
        ADD_FAILURE()
            << name << " has no row in " << TABLE
            << ". Add one, in the order of the attribute names:\n"
            << name << ",\"<allowed values, in the words its refusal prints>\","
            << "\"<values it refuses, separated by ;>\",\"<values it accepts, e.g. its "
            << "default " << info.originalInitialValue->SerializeToString(info.checker)
            << ">\"\nIts checker must refuse each refused value with \"" << name
            << " = <value> is invalid; allowed: <allowed values>\" (MakeExplainingChecker "
            << "and the others of model/explaining-checker.h); \"-\" refuses nothing, "
               "for a Ptr or a free text only.";
    }
}

TEST(AttributeInputTest, OnlyPointersAndFreeTextsRefuseNothing)
{
    const std::map<std::string, TypeId> attributes = ModuleAttributes();
    for (const Row& row : ReadTable())
    {
        const auto it = attributes.find(row.attribute);
        if (it == attributes.end() || !row.refused.empty())
        {
            continue;
        }
        TypeId::AttributeInformation info;
        it->second.LookupAttributeByName(row.attribute.substr(row.attribute.rfind("::") + 2),
                                         &info);
        const std::string type = info.checker->GetValueTypeName();
        EXPECT_TRUE(type == "ns3::PointerValue" || type == "StringValue")
            << TABLE << ":" << row.line << ": " << row.attribute << " is a " << type
            << ": some value of it is invalid, and the row must name one";
    }
}

TEST(AttributeInputTest, EveryRefusedValueIsRefusedWithTheTablesWords)
{
    int tried = 0;
    for (const Row& row : ReadTable())
    {
        if (MissingFromThisBuild(row.attribute))
        {
            continue;
        }
        for (const std::string& value : row.refused)
        {
            SCOPED_TRACE(std::string(TABLE) + ":" + std::to_string(row.line) + ": " +
                         row.attribute + " = \"" + value + "\"");
            const Outcome o = SetDefaultInChild(row.attribute, value);
            EXPECT_FALSE(o.accepted) << "accepted";
            const std::string line = RefusalLine(o.stderr, row.attribute);
            const std::string words = " is invalid; allowed: " + row.allowed;
            const std::size_t at = line.find(words);
            EXPECT_TRUE(at != std::string::npos && (at + words.size() == line.size() ||
                                                    line.compare(at + words.size(), 2, " (") == 0))
                << "no refusal \"" << row.attribute << " = ..." << words
                << "\" on stderr, which has:\n"
                << o.stderr;
            ++tried;
        }
    }
    EXPECT_GT(tried, 200);
}

TEST(AttributeInputTest, EveryAcceptedValueIsAccepted)
{
    for (const Row& row : ReadTable())
    {
        if (MissingFromThisBuild(row.attribute))
        {
            continue;
        }
        for (const std::string& value : row.accepted)
        {
            SCOPED_TRACE(std::string(TABLE) + ":" + std::to_string(row.line) + ": " +
                         row.attribute + " = \"" + value + "\"");
            const Outcome o = SetDefaultInChild(row.attribute, value);
            EXPECT_TRUE(o.accepted) << "refused; stderr:\n" << o.stderr;
            EXPECT_EQ(RefusalLine(o.stderr, row.attribute), "");
        }
    }
}

TEST(AttributeInputTest, TheModulesAttributesAreThoseOfItsGroup)
{
    // The group is how the table's coverage finds the module's TypeIds: a TypeId without it
    // would escape. Where an attribute's code lies tells the module's attributes apart
    // independently of the group.
    TypeId::AttributeInformation reference;
    ASSERT_TRUE(LlmEngine::GetTypeId().LookupAttributeByName("KvCapacityTokens", &reference));
    const std::string library = AccessorFile(reference);
    ASSERT_NE(library.find("ns3-edge-llm"), std::string::npos) << library;
    const std::map<std::string, TypeId> grouped = ModuleAttributes();
    std::size_t inLibrary = 0;
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        const TypeId tid = TypeId::GetRegistered(i);
        for (std::size_t j = 0; j < tid.GetAttributeN(); ++j)
        {
            const std::string name = tid.GetAttributeFullName(j);
            const bool mine = AccessorFile(tid.GetAttribute(j)) == library;
            inLibrary += mine;
            if (mine)
            {
                EXPECT_EQ(tid.GetGroupName(), GROUP)
                    << name << " is registered by " << library << ": its TypeId needs "
                    << "SetGroupName(\"" << GROUP << "\")";
            }
            else if (grouped.count(name) != 0)
            {
                ADD_FAILURE() << name << " is of the group " << GROUP << " but its accessor "
                              << "is in " << AccessorFile(tid.GetAttribute(j));
            }
        }
    }
    EXPECT_EQ(inLibrary, grouped.size());
}

} // namespace
