#include "profiler/inject/cubin_globals.hpp"

#include <elf.h>

#include <cstring>
#include <set>

namespace roofline::inject {
namespace {

// A copy of the record at `offset`, or false when the image is too short to hold it.
template <class T>
bool read_at(std::string_view image, std::size_t offset, T& out) {
  if (offset > image.size() || image.size() - offset < sizeof(T)) return false;
  std::memcpy(&out, image.data() + offset, sizeof(T));
  return true;
}

// The NUL-terminated string at `offset` of a string table, or empty when it runs off the image.
std::string_view string_at(std::string_view image, const Elf64_Shdr& table, std::size_t offset) {
  if (table.sh_offset > image.size() || offset >= table.sh_size) return {};
  const std::string_view strings = image.substr(table.sh_offset, table.sh_size);
  if (offset >= strings.size()) return {};
  const std::size_t end = strings.find('\0', offset);
  return end == std::string_view::npos ? std::string_view{} : strings.substr(offset, end - offset);
}

}  // namespace

std::vector<std::string> writable_globals(std::string_view cubin) {
  Elf64_Ehdr header{};
  if (!read_at(cubin, 0, header) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
      header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_shentsize != sizeof(Elf64_Shdr))
    return {};
  std::vector<Elf64_Shdr> sections(header.e_shnum);
  for (std::size_t i = 0; i < sections.size(); ++i)
    if (!read_at(cubin, header.e_shoff + i * sizeof(Elf64_Shdr), sections[i])) return {};
  if (header.e_shstrndx >= sections.size()) return {};
  std::vector<bool> writable(sections.size());
  for (std::size_t i = 0; i < sections.size(); ++i)
    writable[i] = string_at(cubin, sections[header.e_shstrndx], sections[i].sh_name).starts_with(".nv.global");
  std::set<std::string> names;
  for (const Elf64_Shdr& table : sections) {
    if (table.sh_type != SHT_SYMTAB || table.sh_link >= sections.size() || table.sh_entsize != sizeof(Elf64_Sym))
      continue;
    for (std::size_t k = 0; k < table.sh_size / sizeof(Elf64_Sym); ++k) {
      Elf64_Sym symbol{};
      if (!read_at(cubin, table.sh_offset + k * sizeof(Elf64_Sym), symbol)) break;
      if (ELF64_ST_TYPE(symbol.st_info) != STT_OBJECT || symbol.st_size == 0 || symbol.st_shndx >= sections.size() ||
          !writable[symbol.st_shndx])
        continue;
      const std::string_view name = string_at(cubin, sections[table.sh_link], symbol.st_name);
      if (!name.empty()) names.emplace(name);
    }
  }
  return {names.begin(), names.end()};
}

}  // namespace roofline::inject
