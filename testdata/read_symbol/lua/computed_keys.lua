-- Methods installed under computed keys keep their brackets.
local cl = {}

for _, name in ipairs({ "get", "post", "put" }) do
  cl[name] = function(self, url, opts)
    return self:request(name:upper(), url, opts)
  end
end

cl["delete"] = function(self, url)
  return self:request("DELETE", url)
end

local handlers = { on = {} }
handlers.on[#handlers.on + 1] = function(ev) end

function cl.request(self, method, url, opts)
  return method, url, opts
end

cl.close = function(self) end

return cl
