#include "listing.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

#include "device_properties.h"

namespace omptarget::info {

const std::string *DeviceProperties::find(std::string_view Key) const {
  for (const auto &[K, V] : Props)
    if (K == Key) return &V;
  return nullptr;
}

std::string jsonString(std::string_view Text) {
  std::string Out = "\"";
  for (char C : Text) {
    switch (C) {
      case '"': Out += "\\\""; break;
      case '\\': Out += "\\\\"; break;
      case '\b': Out += "\\b"; break;
      case '\f': Out += "\\f"; break;
      case '\n': Out += "\\n"; break;
      case '\r': Out += "\\r"; break;
      case '\t': Out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(C) < 0x20) {
          char Buf[8];
          std::snprintf(Buf, sizeof(Buf), "\\u%04x", static_cast<unsigned>(C));
          Out += Buf;
        } else {
          Out += C;
        }
    }
  }
  return Out + "\"";
}

std::string jsonValue(std::string_view Value) {
  return props::isDecimalInteger(Value) ? std::string(Value) : jsonString(Value);
}

std::vector<int> parsePeers(std::string_view Peers) {
  std::vector<int> Ids;
  while (!Peers.empty()) {
    size_t Comma = Peers.find(',');
    std::string_view Piece = Peers.substr(0, Comma);
    int Id = -1;
    auto [End, Err] = std::from_chars(Piece.data(), Piece.data() + Piece.size(), Id);
    if (Err == std::errc() && End == Piece.data() + Piece.size() && Id >= 0) Ids.push_back(Id);
    if (Comma == std::string_view::npos) break;
    Peers.remove_prefix(Comma + 1);
  }
  return Ids;
}

std::vector<std::vector<int>> peerMatrix(const std::vector<DeviceProperties> &Devices) {
  std::vector<std::vector<int>> M(Devices.size(), std::vector<int>(Devices.size(), 0));
  for (size_t I = 0; I < Devices.size(); ++I) {
    const std::string *Peers = Devices[I].find("peers");
    std::vector<int> Ids = Peers ? parsePeers(*Peers) : std::vector<int>();
    for (size_t J = 0; J < Devices.size(); ++J) {
      if (I == J) {
        M[I][J] = -1;
        continue;
      }
      for (int Id : Ids)
        if (Id == Devices[J].DeviceNum) M[I][J] = 1;
    }
  }
  return M;
}

namespace {

// "6 devices (x86_64: 4, cuda: 2)": plugins in order of first appearance.
std::string summary(const std::vector<DeviceProperties> &Devices) {
  std::vector<std::pair<std::string, int>> Plugins;
  for (const DeviceProperties &D : Devices) {
    const std::string *P = D.find("plugin");
    std::string Name = P ? *P : "unknown";
    bool Seen = false;
    for (auto &[N, Count] : Plugins)
      if (N == Name) {
        ++Count;
        Seen = true;
      }
    if (!Seen) Plugins.emplace_back(Name, 1);
  }
  std::string S = std::to_string(Devices.size()) + (Devices.size() == 1 ? " device" : " devices");
  if (Devices.empty()) return S + " (no plugin found a device)";
  S += " (";
  for (size_t I = 0; I < Plugins.size(); ++I)
    S += (I ? ", " : "") + Plugins[I].first + ": " + std::to_string(Plugins[I].second);
  return S + ")";
}

std::string padLeft(const std::string &S, size_t Width) {
  return S.size() >= Width ? S : std::string(Width - S.size(), ' ') + S;
}

}  // namespace

std::string humanListing(const std::vector<DeviceProperties> &Devices) {
  std::string Out = "omptarget-info: " + summary(Devices) + "\n";
  for (const DeviceProperties &D : Devices) {
    const std::string *Plugin = D.find("plugin");
    Out += "\nDevice " + std::to_string(D.DeviceNum);
    if (Plugin) Out += " (" + *Plugin + " plugin)";
    Out += ":\n";
    for (const auto &[Key, Value] : D.Props) Out += props::propertyLine(Key, Value) + "\n";
    if (!D.Described) Out += "    (not described: see the error above)\n";
  }
  if (Devices.size() < 2) return Out;
  // Rows copy to columns; a column is as wide as its widest entry.
  std::vector<std::vector<int>> M = peerMatrix(Devices);
  size_t Width = 3;
  for (const DeviceProperties &D : Devices)
    Width = std::max(Width, std::to_string(D.DeviceNum).size());
  Out += "\nPeer access (yes: the row's device copies to the column's device directly):\n";
  Out += std::string(4 + Width, ' ');
  for (const DeviceProperties &D : Devices)
    Out += "  " + padLeft(std::to_string(D.DeviceNum), Width);
  Out += "\n";
  for (size_t I = 0; I < Devices.size(); ++I) {
    Out += "    " + padLeft(std::to_string(Devices[I].DeviceNum), Width);
    for (int Cell : M[I]) Out += "  " + padLeft(Cell < 0 ? "-" : Cell ? "yes" : "no", Width);
    Out += "\n";
  }
  return Out;
}

std::string jsonListing(const std::vector<DeviceProperties> &Devices, bool OffloadDisabled) {
  std::string Out = "{\"offload_disabled\":";
  Out += OffloadDisabled ? "true" : "false";
  Out += ",\"devices\":[";
  for (size_t I = 0; I < Devices.size(); ++I) {
    const DeviceProperties &D = Devices[I];
    Out += I ? ",\n  {" : "\n  {";
    bool First = true;
    auto Field = [&](std::string_view Key, const std::string &Json) {
      Out += (First ? "" : ",") + jsonString(Key) + ":" + Json;
      First = false;
    };
    if (!D.find("device_num")) Field("device_num", std::to_string(D.DeviceNum));
    for (const auto &[Key, Value] : D.Props) {
      if (Key != "peers") {
        Field(Key, jsonValue(Value));
        continue;
      }
      std::string List = "[";
      for (int Id : parsePeers(Value)) {
        if (List.size() > 1) List += ',';
        List += std::to_string(Id);
      }
      Field(Key, List + "]");
    }
    if (!D.Described) Field("error", jsonString("the device could not be described"));
    Out += "}";
  }
  Out += Devices.empty() ? "]" : "\n]";
  Out += ",\"peer_access\":[";
  std::vector<std::vector<int>> M = peerMatrix(Devices);
  for (size_t I = 0; I < M.size(); ++I) {
    Out += I ? "," : "";
    Out += "[";
    for (size_t J = 0; J < M[I].size(); ++J)
      Out += std::string(J ? "," : "") + (M[I][J] < 0 ? "null" : M[I][J] ? "true" : "false");
    Out += "]";
  }
  return Out + "]}\n";
}

std::string disabledListing() {
  return "omptarget-info: offloading is disabled (OMP_TARGET_OFFLOAD=disabled): 0 devices\n";
}

}  // namespace omptarget::info
